package org.testbed.runner.problem;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProblemsTest {

    @Test
    void keepsTheProblemsInTheOrderTheyArose() {
        Problems problems = new Problems();
        problems.stepFailed("vertx mix 64 users", "connection refused");
        problems.sessionFailed("netty (fork 2)", "the jar is missing");
        problems.machineLost("server machine lost");

        assertThat(problems.texts()).containsExactly("vertx mix 64 users: connection refused",
                "netty (fork 2): the jar is missing", "server machine lost");
        assertThat(problems.count()).isEqualTo(3);
        assertThat(problems.isEmpty()).isFalse();
    }

    @Test
    void aProblemOfEveryStepIsReportedOnce() {
        Problems problems = new Problems();
        problems.report(Problem.forEveryStep("vertx flame graphs: its JVM is emulated"));
        problems.report(Problem.of("vertx mix-c64 flame graph: attach failed"));
        problems.report(Problem.forEveryStep("vertx flame graphs: its JVM is emulated"));

        assertThat(problems.texts()).containsExactly("vertx flame graphs: its JVM is emulated",
                "vertx mix-c64 flame graph: attach failed");
    }

    @Test
    void aProblemOfOneMomentIsReportedEachTime() {
        Problems problems = new Problems();
        problems.report(Problem.of("could not stop the server"));
        problems.report(Problem.of("could not stop the server"));

        assertThat(problems.count()).isEqualTo(2);
    }

    @Test
    void theConsoleShowsTheFirstLine() {
        assertThat(Problem.of("netty: did not start\nits log ends with ...").firstLine()).isEqualTo("netty: did not start");
        assertThat(new Problems().isEmpty()).isTrue();
    }
}
