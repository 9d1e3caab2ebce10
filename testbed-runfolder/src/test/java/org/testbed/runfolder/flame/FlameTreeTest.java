package org.testbed.runfolder.flame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlameTreeTest {
    private static final CollapsedStacks A = CollapsedStacks.parse("""
            main_[j];read_[j] 30
            main_[j];write_[j] 70
            """);
    // Twice as many samples: shares, not counts, are compared.
    private static final CollapsedStacks B = CollapsedStacks.parse("""
            main_[j];read_[j] 60
            main_[j];write_[j] 40
            main_[j];park_[j] 100
            """);

    @Test
    void sharesAreOfEachProfilesOwnTotal() {
        FlameTree tree = FlameTree.diff(A, B);
        assertThat(tree.a()).isEqualTo(100);
        assertThat(tree.b()).isEqualTo(200);
        FlameTree main = tree.child("main_[j]");
        assertThat(main.shareDelta(tree)).isCloseTo(0, within(1e-12));
        assertThat(main.child("read_[j]").shareDelta(tree)).as("30%% of A, 30%% of B").isCloseTo(0, within(1e-12));
        assertThat(main.child("write_[j]").shareDelta(tree)).as("70%% of A, 20%% of B").isCloseTo(-0.5, within(1e-12));
        assertThat(main.child("park_[j]").shareDelta(tree)).as("new in B: half of its time").isCloseTo(0.5, within(1e-12));
    }

    @Test
    void selfTimeChangesAreMergedByFrameAndSortedByMagnitude() {
        CollapsedStacks b = CollapsedStacks.parse("""
                main_[j];read_[j] 60
                main_[j];write_[j] 40
                main_[j];park_[j] 60
                other_[j];park_[j] 40
                other_[j] 10
                """);
        // Of 210 samples: park 100 (0 in A), write 40 (70 %), read 60 (30 %), other itself 10 (0 in A).
        List<FlameTree.SelfChange> top = FlameTree.diff(A, b).topSelfChanges(10);
        assertThat(top).extracting(FlameTree.SelfChange::frame).containsExactly("write_[j]", "park_[j]", "other_[j]", "read_[j]");
        assertThat(top.get(0).shareA()).isEqualTo(0.7);
        assertThat(top.get(0).shareB()).isCloseTo(40.0 / 210, within(1e-12));
        assertThat(top.get(1).delta()).as("park under two callers counts once").isCloseTo(100.0 / 210, within(1e-12));
        assertThat(top.get(2).delta()).as("a frame's own samples beside its callees").isCloseTo(10.0 / 210, within(1e-12));
        assertThat(FlameTree.diff(A, b).topSelfChanges(1)).hasSize(1);
    }

    @Test
    void userAndKernelViewsSplitByTheInnermostFrame() {
        CollapsedStacks s = CollapsedStacks.parse("""
                run_[j];socketWrite_[j];writev;do_syscall_64_[k];tcp_sendmsg_[k] 7
                run_[j];encode_[j] 5
                run_[j];writev 2
                frame with spaces_[j];x_[j] 1
                # a comment line
                truncated line without count
                """);
        assertThat(s.total()).isEqualTo(15);
        assertThat(s.kernelOnly().total()).isEqualTo(7);
        assertThat(s.userOnly().total()).isEqualTo(8);
        assertThat(s.userOnly().samples()).containsKey("frame with spaces_[j];x_[j]");
        assertThat(s.kernelOnly().total() + s.userOnly().total()).isEqualTo(s.total());
    }

    @Test
    void theDifferentialPageCarriesBothProfiles(@TempDir Path dir) throws Exception {
        Path page = FlameGraphHtml.writeDiff(dir.resolve("d.html"), "diff", A, B, "note");
        String html = Files.readString(page);
        assertThat(html).contains("\"diff\":true").contains("\"n\":\"park_[j]\",\"b\":100,\"a\":0")
                .contains("\"frame\":\"write_[j]\"").doesNotContain("</script><");
        Path single = FlameGraphHtml.write(dir.resolve("s.html"), "one", B, "note");
        assertThat(Files.readString(single)).contains("\"diff\":false").doesNotContain("\"a\":");
    }
}
