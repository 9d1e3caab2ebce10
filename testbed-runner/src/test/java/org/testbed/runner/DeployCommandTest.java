package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad deploy arguments end in one line saying what is allowed, exit status 1, before any build or
 * ssh connection (the host named here does not exist: reaching it would print another error).
 */
class DeployCommandTest {
    private static final String ROOT = RunnerJar.ROOT.toString();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no variant                | --host u@nowhere.invalid                                | which variant? one of: spring-tomcat",
        "unknown variant           | nope --host u@nowhere.invalid                           | no variant 'nope' in variants.conf; one of:",
        "no host                   | vertx                                                   | --host USER@HOST is required",
        "two variants              | vertx jetty-handler --host u@nowhere.invalid            | one variant at a time ('vertx' and 'jetty-handler')",
        "port 0                    | vertx --host u@nowhere.invalid --app-port 0             | --app-port must be a fixed port (1-65535)",
        "port word                 | vertx --host u@nowhere.invalid --app-port http          | --app-port must be a fixed port (1-65535)",
        "dir with ~                | vertx --host u@nowhere.invalid --dir ~/x                | --dir '~/x': use letters, digits and . _ / + - only",
        "service                   | vertx --host u@nowhere.invalid --service upstart        | --service must be auto, systemd or nohup",
        "timeout                   | vertx --host u@nowhere.invalid --timeout -1             | --timeout must be a number of seconds",
        "ssh port                  | vertx --host u@nowhere.invalid --ssh-port 0             | --ssh-port must be an ssh port, 1-65535",
        "ssh port, its old name    | vertx --host u@nowhere.invalid --port 0                 | --ssh-port must be an ssh port, 1-65535",
        "identity                  | vertx --host u@nowhere.invalid --identity no/such/key   | --identity no/such/key: no such readable file",
        "two actions               | vertx --host u@nowhere.invalid --stop --status          | one of --stop, --status, --logs at a time",
    })
    void badArgumentsAreOneLineAndNoConnection(String name, String args, String expected) {
        String[] words = (args.strip() + " --root " + ROOT + " --no-build").split("\\s+");
        String[] command = new String[words.length + 1];
        command[0] = "deploy";
        System.arraycopy(words, 0, command, 1, words.length);
        Result result = execute(command);
        assertThat(result.status()).as(result.err()).isEqualTo(1);
        assertThat(result.err()).startsWith("deploy: error: " + expected).hasLineCount(1);
    }

    @Test
    void helpListsTheSettingsPassedOn() {
        Result result = execute("deploy", "--help");
        assertThat(result.status()).isZero();
        assertThat(result.out()).contains("--host=USER@HOST", "--stop", "--status", "--logs[=N]", "--no-build",
                "TESTBED_THREADS", "TESTBED_JAVA_OPTS", "JAVA_TOOL_OPTIONS");
    }

    private record Result(int status, String out, String err) {
    }

    private static Result execute(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int status = Main.execute(args);
            return new Result(status, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
