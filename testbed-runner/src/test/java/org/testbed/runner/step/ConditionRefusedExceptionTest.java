package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConditionRefusedExceptionTest {

    @Test
    void theReasonIsTheServersComplaintAboutItsArguments() {
        String failure = "vertx exited with status 2 before it was ready. Command: java -jar vertx.jar --gzip\n"
                + "Last output (logs/vertx.log):\nvertx: Unknown option: '--gzip'\nTry 'vertx --help' for the options.";
        assertThat(ConditionRefusedException.reason(failure)).isEqualTo("vertx: Unknown option: '--gzip'");
    }

    @Test
    void orItsTestbedLine() {
        String failure = "vertx exited with status 2 before it was ready. Command: x\nLast output:\nbanner\n"
                + "testbed: Cannot make a self-signed certificate for TLS: keytool is missing";
        assertThat(ConditionRefusedException.reason(failure))
                .isEqualTo("Cannot make a self-signed certificate for TLS: keytool is missing");
    }

    @Test
    void withoutOneItIsTheFirstLine() {
        assertThat(ConditionRefusedException.reason("vertx printed no ready line within PT1M30S. Command: x\nmore"))
                .isEqualTo("vertx printed no ready line within PT1M30S. Command: x");
    }
}
