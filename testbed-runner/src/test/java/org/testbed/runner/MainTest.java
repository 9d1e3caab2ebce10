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
import java.util.List;
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
                .contains("\n  serve <variant> [options]  Build the variant", "\n  test [--fast] [maven args]", "\n  jmh [regex] [options]",
                        "\n  run [options]", "\n  machine [options]", "\n  report [options] RUN_DIR", "\n  compare [options] DIR_A DIR_B", "\n  --help  ",
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
    void reportPricesARunAfterItAndSaysInOneLineWhatIsWrongWithAPrice() throws Exception {
        Path run = Files.createDirectories(root.resolve("run"));
        org.testbed.runfolder.csv.ResultRow.StepKey key = new org.testbed.runfolder.csv.ResultRow.StepKey("vertx", "mix", 64, 0,
                org.testbed.runfolder.Conditions.PLAIN);
        org.testbed.runfolder.csv.ResultsCsv.write(run.resolve("results.csv"), List.of(new org.testbed.runfolder.csv.ResultRow(
                new org.testbed.runfolder.csv.ResultRow.Origin("r1", "2026-01-01T00:00:00Z", "vm-arm", "aarch64", "Neoverse-N1", 4, "21"),
                key, "async", "testbed-nio", new org.testbed.runfolder.csv.ResultRow.Throughput(10, 100_000, 0, 10_000),
                new org.testbed.runfolder.csv.ResultRow.Latencies(1, 2, 3, 4, 5),
                new org.testbed.runfolder.csv.ResultRow.ServerCost(0.03, 0.01, 200, 1, 2))));
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("--root", root.toString(), "report", run.toString(), "--price-per-hour", "0.0336"))
                .as("no steps.csv: nothing to price").isEqualTo(2);
        org.testbed.runfolder.csv.StepsCsv.TABLE.write(run.resolve("steps.csv"), List.of(new org.testbed.runfolder.csv.StepRecord(key,
                new org.testbed.runfolder.csv.StepRecord.DriverSide("testbed-nio", 100, 40, 64, 0, 0),
                new org.testbed.runfolder.csv.StepRecord.ServerSide(90, 20),
                new org.testbed.runfolder.csv.StepRecord.LoadSide(10, 60, 0, 0, 50, false),
                new org.testbed.runfolder.csv.StepRecord.Setup("0-1", "2-3", 0, 200, ""),
                new org.testbed.runfolder.csv.StepRecord.Files("raw/vertx/mix-c0064.txt", java.util.Optional.empty(), java.util.Optional.empty()),
                new org.testbed.runfolder.csv.StepRecord.Repeats(1, org.testbed.runfolder.stats.Spread.single(10_000),
                        org.testbed.runfolder.stats.Spread.single(3), org.testbed.runfolder.stats.Spread.single(0.04)),
                new org.testbed.runfolder.csv.StepRecord.Steadiness(5, 0, 0), org.testbed.runfolder.csv.StepRecord.OpenModel.CLOSED,
                org.testbed.runfolder.csv.StepRecord.Cost.NONE)));
        Path prices = Files.writeString(root.resolve("prices.conf"), "vm-x86 = 0.0416\naarch64 = 0.0336  # the arm VMs\n");
        assertThat(cli.execute("--root", root.toString(), "report", run.toString(), "--price-per-hour", "$0.03")).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "report", run.toString(), "--price-per-hour", "1", "--prices",
                prices.toString())).isEqualTo(2);
        Path bad = Files.writeString(root.resolve("bad.conf"), "vm-x86: 0.0416\n");
        assertThat(cli.execute("--root", root.toString(), "report", run.toString(), "--prices", bad.toString())).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(4).allMatch(line -> line.startsWith("testbed: "))
                .anyMatch(line -> line.contains("has no steps.csv"))
                .anyMatch(line -> line.contains("not '$0.03'"))
                .anyMatch(line -> line.contains("exclude each other"))
                .anyMatch(line -> line.contains("bad.conf line 1: 'vm-x86: 0.0416' has no '='"));

        // Priced by the arch (the host is not in the file), the server pinned to 2 of the machine's 4 CPUs.
        assertThat(cli.execute("--root", root.toString(), "report", run.toString(), "--prices", prices.toString())).isZero();
        List<org.testbed.runfolder.csv.StepRecord> steps = org.testbed.runfolder.csv.StepsCsv.TABLE.read(run.resolve("steps.csv"));
        assertThat(steps.get(0).cost().pricePerHour()).isEqualTo(0.0336);
        assertThat(steps.get(0).cost().serverShare()).isEqualTo(0.5);
        assertThat(steps.get(0).cost().perMillion()).isCloseTo(0.0168 / 36, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(Files.readString(run.resolve("environment.json"))).contains("'aarch64' (the arch)");
        assertThat(Files.readString(run.resolve("report.html"))).contains("cost_per_million");
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
                "testbed: --driver nope: not a driver; use testbed-nio, wrk or jmeter");
        assertThat(err.toString()).startsWith("testbed: nothing answers at http://127.0.0.1:" + port + ": ")
                .contains("java.net.ConnectException");
    }

    @Test
    void aStoreLatencyTheRunCannotHonourIsOneLineBeforeAnyWork() throws IOException {
        manifest();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--store-latency", "10 ms")).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--store-latency", "10ms,10ms+-0ms"))
                .isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--profile", "store-latency",
                "--server-host", "someone@elsewhere")).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(3).allMatch(line -> line.startsWith("testbed: "))
                .anyMatch(line -> line.contains("whole milliseconds") && line.contains("'10 ms'"))
                .anyMatch(line -> line.contains("--store-latency names 10 ms twice"))
                .anyMatch(line -> line.contains("--server-host cannot be combined with it"));
    }

    @Test
    void aFaultThatDoesNotFitTheWindowOrHasNoBaselineIsRefusedInOneLine() throws IOException {
        manifest();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        Path out = root.resolve("fault-run");
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--duration", "6s",
                "--fault", "stall:5s+2s", "--out", out.toString())).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--duration", "6s",
                "--fault", "stall:500ms+1s", "--out", out.toString())).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--duration", "6s",
                "--fault", "freeze:1s+1s", "--out", out.toString())).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(3).allMatch(line -> line.startsWith("testbed: "));
        assertThat(err.toString()).contains("--fault stall:5s+2s does not fit in the window (--duration 6.0s)")
                .contains("--fault stall:500ms+1s starts before the window's first whole second is over")
                .contains("unknown fault 'freeze'");
    }

    @Test
    void aMalformedPlantedWorkIsOneLineAndExit2() throws IOException {
        manifest();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        Path out = root.resolve("work-run");
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--conditions", "plain,work-5us",
                "--out", out.toString())).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--conditions", "workabc",
                "--out", out.toString())).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--conditions", "tls+work0us",
                "--out", out.toString())).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(
                "testbed: a planted work is whole microseconds of CPU per item request, written work20us (1 to 100000);"
                        + " not 'work-5us'",
                "testbed: a planted work is whole microseconds of CPU per item request, written work20us (1 to 100000);"
                        + " not 'workabc'",
                "testbed: a planted work is 1 to 100000 microseconds per item request (work1us..work100000us; plain is"
                        + " none), not 'work0us'");
        assertThat(out).doesNotExist();
    }

    @Test
    void aSettleOutOfRangeIsOneLineAndExit2() throws IOException {
        manifest();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        Path out = root.resolve("settle-run");
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--settle", "-1s",
                "--out", out.toString())).isEqualTo(2);
        assertThat(cli.execute("--root", root.toString(), "run", "--variants", "fast", "--settle", "2m",
                "--out", out.toString())).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly("testbed: --settle must be from 0s to 1m, not -1s",
                "testbed: --settle must be from 0s to 1m, not 2m");
        assertThat(out).doesNotExist();
    }

    private void manifest() throws IOException {
        Files.writeString(root.resolve("variants.conf"), """
                # name module jar mode min_jdk description
                fast   fast-app  fast-app/target/fast.jar  async    17  A fast one
                slow   slow-app  slow-app/target/slow.jar  virtual  21  A slow one, two words
                """);
    }
}
