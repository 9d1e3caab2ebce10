package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunInterruptionTest {
    private static final List<String> ARGS = List.of("run", "--root", "/repo", "--variants", "vertx,jetty-handler",
            "--assert", "mix rps > 1000", "--run-id", "r1", "--out=/tmp/r1");

    @Test
    void theLineSaysWhatWasKeptAndHowToGoOn() {
        assertThat(RunInterruption.line(Path.of("results", "r1"), ARGS, 3, 9))
                .isEqualTo("stopped: 3 step(s) kept in results/r1 (9 window(s); results.csv, steps.csv and samples.csv are whole);"
                        + " their report: ./testbed report results/r1; to measure the rest: ./testbed run --resume results/r1"
                        + " (or it all again in a new folder: ./testbed run --variants vertx,jetty-handler --assert 'mix rps > 1000')");
        assertThat(RunInterruption.line(Path.of("results", "r1"), ARGS, 0, 0))
                .startsWith("stopped before any window was measured: nothing kept in results/r1; to start again: ./testbed run --variants");
    }

    @Test
    void theRepeatedCommandHasNoFolderIdOrRoot() {
        assertThat(RunInterruption.withoutFolder(List.of("run", "--out", "x", "--run-id", "y", "--root=/r", "--forks", "2")))
                .containsExactly("--forks", "2");
        assertThat(RunInterruption.withoutFolder(List.of())).isEmpty();
        // ./testbed puts the repository before the command's name; a default run has no option of its own.
        assertThat(RunInterruption.withoutFolder(List.of("--root", "/repo", "run"))).isEmpty();
        assertThat(RunInterruption.withoutFolder(List.of("--root", "/repo", "run", "--variants", "vertx")))
                .containsExactly("--variants", "vertx");
    }
}
