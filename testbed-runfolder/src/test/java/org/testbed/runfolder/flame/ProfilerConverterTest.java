package org.testbed.runfolder.flame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import one.convert.Arguments;
import one.convert.FlameGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilerConverterTest {
    private static final CollapsedStacks A = CollapsedStacks.parse("""
            main_[j];read_[j] 30
            main_[j];write_[j] 70
            """);
    // Twice as many samples: shares, not counts, are compared in the table.
    private static final CollapsedStacks B = CollapsedStacks.parse("""
            main_[j];read_[j] 60
            main_[j];write_[j] 40
            main_[j];park_[j] 100
            """);

    @Test
    void aProfileIsDrawnWithEveryStackAndItsCount(@TempDir Path dir) throws Exception {
        Path page = ProfilerConverter.flameGraph(B, "vertx mix-c0008: cpu samples", dir.resolve("b.html"));
        String html = Files.readString(page);
        assertThat(html).contains("<h1>vertx mix-c0008: cpu samples</h1>").contains("<canvas id='canvas'>");
        // Read back by the converter's own reader of its pages: the same stacks with the same counts.
        FlameGraph read = new FlameGraph(new Arguments("-o", "collapsed"));
        read.parseHtml(new StringReader(html));
        assertThat(CollapsedStacks.parse(ProfilerConverter.text(read)).samples())
                .containsExactlyInAnyOrderEntriesOf(B.samples());
    }

    @Test
    void theDiffMarksTheGrownShrunkAndNewFrames(@TempDir Path dir) throws Exception {
        // As collapsed stacks the converter's diff gives, per stack, A's samples then B's.
        String counts = ProfilerConverter.text(ProfilerConverter.diffGraph(A, B, "collapsed", null));
        assertThat(counts.lines()).containsExactlyInAnyOrder(
                "main_[j];read_[j] 30 60", "main_[j];write_[j] 70 40", "main_[j];park_[j] 0 100");
        String html = Files.readString(ProfilerConverter.diff(A, B, "diff", dir.resolve("d.html")));
        // The page colours by the change of each frame's own samples: +30 (read), -30 (write), new (park).
        assertThat(html).contains("const maxdiff = 30;").contains("\nd=30\n").contains("\nd=-30\n").contains("\nd=U\n");
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
        assertThat(CollapsedStacks.parse(s.text()).samples()).isEqualTo(s.samples());
    }

    @Test
    void selfTimeChangesAreSharesMergedByFrameAndSortedByMagnitude(@TempDir Path dir) throws Exception {
        CollapsedStacks b = CollapsedStacks.parse("""
                main_[j];read_[j] 60
                main_[j];write_[j] 40
                main_[j];park_[j] 60
                other_[j];park_[j] 40
                other_[j] 10
                """);
        // Of 210 samples: park 100 (0 in A), write 40 (70 %), read 60 (30 %), other itself 10 (0 in A).
        List<SelfTimeChanges.Change> top = SelfTimeChanges.top(A, b, 10);
        assertThat(top).extracting(SelfTimeChanges.Change::frame).containsExactly("write_[j]", "park_[j]", "other_[j]", "read_[j]");
        assertThat(top.get(0).shareA()).isEqualTo(0.7);
        assertThat(top.get(0).shareB()).isCloseTo(40.0 / 210, within(1e-12));
        assertThat(top.get(1).delta()).as("park under two callers counts once").isCloseTo(100.0 / 210, within(1e-12));
        assertThat(top.get(2).delta()).as("a frame's own samples beside its callees").isCloseTo(10.0 / 210, within(1e-12));
        assertThat(SelfTimeChanges.top(A, b, 1)).hasSize(1);

        String page = Files.readString(SelfTimeChanges.writePage(dir.resolve("f.html"), "frames <b>", "note", top));
        assertThat(page).contains("frames &lt;b&gt;")
                .contains("<tr><td class=\"l\">write_[j]</td><td>70.00 %</td><td>19.05 %</td><td class=\"down\">-50.95 %</td></tr>");
    }
}
