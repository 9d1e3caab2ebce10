package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.Records;
import org.testbed.runfolder.SyntheticRun;
import org.testbed.runfolder.gate.Assertion;
import org.testbed.runfolder.report.ReportWriter;
import org.w3c.dom.Element;
import picocli.CommandLine;

/**
 * The gates end to end, as ./testbed calls them: compare --fail-on and report --assert over run
 * folders written through the run folder's tables, their exit statuses, their JUnit reports, and
 * their bad input refused in one line before any work (run --assert included).
 */
class GatesTest {
    private static final SyntheticRun.Step MIX = SyntheticRun.Step.of(Records.closed("vertx", "mix", 64), 20000, 4, 0.04);
    private static final SyntheticRun.Step DELAY = SyntheticRun.Step.of(Records.closed("vertx", "delay", 400), 2600, 160, 0.05);

    @TempDir
    Path root;

    private Path a;
    private Path twiceAsSlow;
    private final StringWriter err = new StringWriter();
    private String out = "";

    @BeforeEach
    void runs() throws Exception {
        a = SyntheticRun.write(root.resolve("a"), List.of(MIX, DELAY));
        twiceAsSlow = SyntheticRun.write(root.resolve("b"), List.of(MIX.scaled(0.5, 2), DELAY.scaled(0.5, 2)));
    }

    /** Runs the command line with --root, keeping what it printed; returns the exit status. */
    private int testbed(String... args) {
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));
        PrintStream previous = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            String[] all = new String[args.length + 2];
            all[0] = "--root";
            all[1] = root.toString();
            System.arraycopy(args, 0, all, 2, args.length);
            return cli.execute(all);
        } finally {
            System.setOut(previous);
            out = buffer.toString(StandardCharsets.UTF_8);
        }
    }

    private static Element junit(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    }

    @Test
    void aRunComparedWithItselfPassesTheGate() throws Exception {
        assertThat(testbed("compare", a.toString(), a.toString(), "--fail-on", "slower")).as(out + err).isZero();
        Element suite = junit(a.resolve("compare-junit.xml"));
        assertThat(suite.getAttribute("tests")).isEqualTo("6");
        assertThat(suite.getAttribute("failures")).isEqualTo("0");
        assertThat(suite.getAttribute("skipped")).isEqualTo("0");
        assertThat(out).contains("; JUnit: " + a.resolve("compare-junit.xml"), "--fail-on slower: 6 checked: 6 passed,"
                + " 0 failed, 0 inconclusive");
    }

    @Test
    void aTwiceAsSlowRunFailsTheGateWithItsOwnStatus() throws Exception {
        assertThat(testbed("compare", a.toString(), twiceAsSlow.toString(), "--fail-on", "slower"))
                .as(out + err).isEqualTo(Main.EXIT_GATE_FAILED).isEqualTo(4);
        Path xml = twiceAsSlow.resolve("compare-junit.xml");
        assertThat(xml).isRegularFile();
        assertThat(twiceAsSlow.resolve("compare.csv")).as("beside compare.csv").isRegularFile();
        Element suite = junit(xml);
        assertThat(suite.getAttribute("tests")).isEqualTo("6");
        assertThat(suite.getAttribute("failures")).isEqualTo("6");
        Element first = (Element) suite.getElementsByTagName("testcase").item(0);
        assertThat(first.getAttribute("name")).isEqualTo("vertx mix c=64 rps");
        assertThat(first.getAttribute("classname")).isEqualTo("vertx");
        Element failure = (Element) first.getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("type")).isEqualTo("slower");
        assertThat(failure.getAttribute("message")).startsWith("slower beyond noise: B/A 0.500 [")
                .contains("50.0 % slower", "(" + a + ")", "(" + twiceAsSlow + ")");
        assertThat(out).contains("--fail-on slower: 6 checked: 0 passed, 6 failed, 0 inconclusive",
                "  FAIL vertx mix c=64 rps: slower beyond noise");
    }

    @Test
    void onlyTheFiguresNamedAndBeyondTheirSmallestChangeFail() throws Exception {
        assertThat(testbed("compare", a.toString(), twiceAsSlow.toString(), "--fail-on", "p99>90%")).as(out + err).isEqualTo(4);
        Element suite = junit(twiceAsSlow.resolve("compare-junit.xml"));
        assertThat(suite.getAttribute("tests")).as("p99 of two steps").isEqualTo("2");
        assertThat(suite.getAttribute("failures")).as("p99 doubled: 100 % slower, beyond 90 %").isEqualTo("2");

        assertThat(testbed("compare", a.toString(), twiceAsSlow.toString(), "--fail-on", "rps>60%")).as(out + err).isZero();
        suite = junit(twiceAsSlow.resolve("compare-junit.xml"));
        assertThat(suite.getAttribute("tests")).isEqualTo("2");
        assertThat(suite.getAttribute("failures")).as("half the throughput: 50 % slower, within 60 %").isEqualTo("0");
    }

    @Test
    void withoutFailOnCompareExitsZeroWhateverTheVerdictsAndStillWritesTheReport() throws Exception {
        assertThat(testbed("compare", a.toString(), twiceAsSlow.toString())).as(out + err).isZero();
        Element suite = junit(twiceAsSlow.resolve("compare-junit.xml"));
        assertThat(suite.getAttribute("failures")).as("what --fail-on slower would say").isEqualTo("6");
        assertThat(out).doesNotContain("--fail-on");
    }

    @Test
    void aSingleSampleOnASideIsInconclusiveNotPassed() throws Exception {
        Path once = SyntheticRun.write(root.resolve("once"), List.of(MIX.times(1, 1), DELAY.times(1, 1)));
        assertThat(testbed("compare", once.toString(), twiceAsSlow.toString(), "--fail-on", "slower")).as(out + err).isZero();
        Element suite = junit(twiceAsSlow.resolve("compare-junit.xml"));
        assertThat(suite.getAttribute("skipped")).isEqualTo("6");
        assertThat(suite.getAttribute("failures")).isEqualTo("0");
        assertThat(((Element) suite.getElementsByTagName("skipped").item(0)).getAttribute("message"))
                .startsWith("no noise estimate: 1 sample(s) in A, 6 in B");
    }

    @Test
    void aBadFailOnIsOneLineAndNothingIsWritten() {
        assertThat(testbed("compare", a.toString(), twiceAsSlow.toString(), "--fail-on", "faster")).isEqualTo(2);
        assertThat(err.toString().lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("testbed: --fail-on 'faster': no figure 'faster'; --fail-on takes slower (rps, p99, cpu, cost) or"
                        + " figures among rps, p99, cpu"));
        assertThat(twiceAsSlow.resolve("compare.csv")).doesNotExist();
        assertThat(twiceAsSlow.resolve("compare-junit.xml")).doesNotExist();
    }

    @Test
    void reportAssertChecksAnExistingRunFolder() throws Exception {
        assertThat(testbed("report", a.toString(), "--assert", "p99<=1s", "--assert", "errors=0", "--assert", "mix:rps>=1000"))
                .as(out + err).isZero();
        assertThat(a.resolve(ReportWriter.FILE)).isRegularFile();
        Element suite = junit(a.resolve("assert-junit.xml"));
        assertThat(suite.getAttribute("tests")).isEqualTo("5");
        assertThat(suite.getAttribute("failures")).isEqualTo("0");
        assertThat(out).contains("assertions: 5 checked: 5 passed, 0 failed, 0 inconclusive", "JUnit: " + a.resolve("assert-junit.xml"));

        assertThat(testbed("report", twiceAsSlow.toString(), "--assert", "mix:p99<=5ms", "--assert", "rps>=1000"))
                .as(out + err).isEqualTo(4);
        suite = junit(twiceAsSlow.resolve("assert-junit.xml"));
        assertThat(suite.getAttribute("tests")).isEqualTo("3");
        assertThat(suite.getAttribute("failures")).as("its mix p99 is about 8 ms").isEqualTo("1");
        assertThat(out).contains("FAIL          mix:p99<=5ms", "FAIL vertx mix c=64 mix:p99<=5ms: p99 ",
                "the whole interval is above 5 ms", "assertions FAILED (exit status 4)");
    }

    @Test
    void aBadAssertionOrScopeIsOneLineBeforeTheReportIsWritten() {
        assertThat(testbed("report", a.toString(), "--assert", "p98<=5ms")).isEqualTo(2);
        assertThat(testbed("report", a.toString(), "--assert", "json:p99<=5ms")).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(
                "testbed: --assert 'p98<=5ms': no metric 'p98'; " + Assertion.USAGE,
                "testbed: --assert 'json:p99<=5ms': no scenario 'json' in this run; its scenarios: mix, delay");
        assertThat(a.resolve(ReportWriter.FILE)).doesNotExist();
        assertThat(a.resolve("assert-junit.xml")).doesNotExist();
    }

    @Test
    void runRefusesABadAssertionBeforeAnyWork() throws Exception {
        Files.writeString(root.resolve("variants.conf"), """
                # name module jar mode min_jdk description
                fast   fast-app  fast-app/target/fast.jar  async    17  A fast one
                """);
        Path folder = root.resolve("results/never");
        assertThat(testbed("run", "--variants", "fast", "--scenarios", "mix", "--out", folder.toString(),
                "--assert", "p99<=5")).isEqualTo(2);
        assertThat(testbed("run", "--variants", "fast", "--scenarios", "mix", "--out", folder.toString(),
                "--assert", "delay:p99<=5ms")).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(
                "testbed: --assert 'p99<=5': p99 is a time: give its unit, us, ms or s (e.g. 'p99<=5ms'); "
                        + Assertion.USAGE,
                "testbed: --assert 'delay:p99<=5ms': no scenario 'delay' in this run; its scenarios: mix");
        assertThat(folder).doesNotExist();
    }

    @Test
    void theHelpListsEveryExitStatus() {
        String usage = Main.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(usage).contains("Exit status:");
        for (String status : new String[] {"0\\s+Done", "1\\s+The command failed", "2\\s+Bad arguments",
                "3\\s+run finished with problems", "4\\s+A gate failed"}) {
            assertThat(usage.lines()).as(status).anyMatch(line -> line.matches("\\s+" + status + ".*"));
        }
        assertThat(usage.lines()).allMatch(line -> line.length() <= 100, "no line wider than 100 columns");
        for (String command : new String[] {"compare", "report", "run"}) {
            String help = Main.commandLine().getSubcommands().get(command).getUsageMessage(CommandLine.Help.Ansi.OFF);
            assertThat(help.lines()).as(command).anyMatch(line -> line.matches("\\s+4\\s+A gate failed.*"));
        }
        assertThat(Main.commandLine().getSubcommands().get("compare").getUsageMessage(CommandLine.Help.Ansi.OFF))
                .contains("--fail-on=FIGURES");
        assertThat(Main.commandLine().getSubcommands().get("report").getUsageMessage(CommandLine.Help.Ansi.OFF))
                .contains("--assert=CHECK");
    }
}
