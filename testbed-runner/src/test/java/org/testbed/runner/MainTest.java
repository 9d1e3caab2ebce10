package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The command line as ./testbed calls it: the overview, what reaches the pass-through commands, one-line errors. */
class MainTest {
    @TempDir
    Path root;

    @Test
    void theOverviewListsEveryCommandWithItsArgumentsButNotDrive() {
        String usage = Main.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);

        assertThat(usage).startsWith("Usage: ./testbed <command> [arguments]")
                .contains("\n  serve <variant> [options]  Build the variant", "\n  test [maven args]", "\n  jmh [regex] [options]",
                        "\n  run [options]", "\n  report [options] RUN_DIR", "\n  compare [options] DIR_A DIR_B", "\n  --help  ",
                        "JAVA21_HOME")
                .doesNotContain("drive", "--root");
        assertThat(usage.lines()).allMatch(line -> line.length() <= 100, "no line wider than 100 columns");
    }

    @Test
    void everythingAfterTheVariantGoesToTheServerAndEverythingAfterTestOrJmhToMavenOrJmh() {
        ParseResult serve = Main.commandLine().parseArgs("--root", root.toString(), "serve", "vertx", "--port", "0", "--help");
        ServeCommand command = (ServeCommand) serve.subcommand().commandSpec().userObject();
        assertThat(command.name).isEqualTo("vertx");
        assertThat(command.serverArgs).containsExactly("--port", "0", "--help");

        ParseResult test = Main.commandLine().parseArgs("test", "-Dtestbed.variants=vertx", "-pl", "testbed-runner");
        assertThat(((TestCommand) test.subcommand().commandSpec().userObject()).mavenArgs)
                .containsExactly("-Dtestbed.variants=vertx", "-pl", "testbed-runner");

        ParseResult jmh = Main.commandLine().parseArgs("jmh", "CodecBenchmark", "-p", "payload=100", "-h", "--profile-async");
        assertThat(((JmhCommand) jmh.subcommand().commandSpec().userObject()).arguments)
                .containsExactly("CodecBenchmark", "-p", "payload=100", "-h", "--profile-async");
    }

    @Test
    void serveListsTheVariantsOfTheManifest() throws IOException {
        manifest();
        PrintStream previous = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.commandLine().execute("--root", root.toString(), "serve", "--list")).isZero();
        } finally {
            System.setOut(previous);
        }
        assertThat(buffer.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "VARIANT                  MODE     JDK  DESCRIPTION",
                "fast                     async    17+  A fast one",
                "slow                     virtual  21+  A slow one, two words");
    }

    @Test
    void anUnknownVariantIsOneLineNamingTheKnownOnes() throws IOException {
        manifest();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("--root", root.toString(), "serve", "nope")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("testbed: no variant 'nope'; known: fast, slow"
                + " ('./testbed serve --list' describes them)" + System.lineSeparator());
    }

    @Test
    void badArgumentsAreOneLineNamingTheHelpToRead() {
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("--root", root.toString(), "bogus")).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "report", "--bogus", "x")).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(2)
                .allMatch(line -> line.startsWith("testbed: "))
                .anyMatch(line -> line.endsWith("(see './testbed --help')"))
                .anyMatch(line -> line.endsWith("(see './testbed report --help')"));
    }

    @Test
    void aCommandThatFailsAtItsWorkExitsWith1NotWithTheBadArgumentStatus() throws IOException {
        Path run = Files.createDirectories(root.resolve("broken-run"));
        Files.writeString(run.resolve("results.csv"), "not,a,results,file\n1,2,3,4\n");
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("--root", root.toString(), "report", run.toString())).isEqualTo(1);
        assertThat(cli.execute("--root", root.toString(), "report", root.resolve("no-such-run").toString()))
                .as("a folder that is not a run is a bad argument").isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(2).allMatch(line -> line.startsWith("testbed: "))
                .anyMatch(line -> line.contains("does not have the expected columns"));
    }

    @Test
    void driveSaysAtOnceWhenNothingListensAndNamesAWrongDriver() throws IOException {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("--root", root.toString(), "drive", "--url", "http://127.0.0.1:" + port,
                "--duration", "1s")).isEqualTo(1);
        assertThat(cli.execute("--root", root.toString(), "drive", "--url", "http://127.0.0.1:" + port,
                "--driver", "nope")).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(
                err.toString().lines().findFirst().orElseThrow(),
                "testbed: --driver nope: not a driver; use testbed-nio or wrk");
        assertThat(err.toString()).startsWith("testbed: nothing answers at http://127.0.0.1:" + port + ": ")
                .contains("java.net.ConnectException");
    }

    private void manifest() throws IOException {
        Files.writeString(root.resolve("variants.conf"), """
                # name module jar mode min_jdk description
                fast   fast-app  fast-app/target/fast.jar  async    17  A fast one
                slow   slow-app  slow-app/target/slow.jar  virtual  21  A slow one, two words
                """);
    }
}
