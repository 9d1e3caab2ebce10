package org.testbed.runner.suite;

import java.util.List;

/**
 * The checks {@code ./testbed test} still runs as scripts after {@code ./mvnw verify}, in order. Each
 * is bounded and targets loopback only. This is the one list of them: when a script becomes a Maven
 * test, remove its entry here.
 */
public final class SmokeScripts {
    /** A heading printed before the group, and the scripts (relative to the repository root) run under it. */
    public record Group(String heading, List<String> scripts) {
    }

    public static final List<Group> GROUPS = List.of(
            new Group("Gatling simulations, smoke runs against spring-tomcat:", List.of("gatling-sims/smoke.sh")),
            new Group("JMH benchmarks, one short iteration each:", List.of("jmh-bench/smoke.sh")),
            new Group("Deployment: the compose file against variants.conf, then ./testbed deploy over a loopback sshd:",
                    List.of("docker/compose-check.sh", "docker/deploy-test.sh")));

    private SmokeScripts() {
    }
}
