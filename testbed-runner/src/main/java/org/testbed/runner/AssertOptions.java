package org.testbed.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.testbed.runfolder.gate.Assertion;
import org.testbed.runfolder.gate.GateSuite;
import org.testbed.runfolder.gate.RunAssertions;
import picocli.CommandLine.Option;

/**
 * {@code --assert} of {@code run} and {@code report}: the option, read before any work, and the
 * check over the run folder ({@link RunAssertions}) once it is complete.
 */
final class AssertOptions {
    @Option(names = "--assert", paramLabel = "CHECK",
            description = "Check every matching step of the run folder (repeatable): [SCENARIO:]METRIC OP VALUE with"
                    + " METRIC rps, p50, p90, p99, p99.9, errors or cpu (server CPU per request), OP <=, <, >=, > (= for"
                    + " errors), times with their unit us, ms or s, e.g. 'p99<=5ms', 'errors=0', 'rps>=1000',"
                    + " 'mix:cpu<=50us'. With repeats a step passes only when its whole interval (steps.csv) keeps the"
                    + " bound, fails only when all of it breaks it, else INCONCLUSIVE; with one sample the figure decides."
                    + " Prints a verdict table, writes assert-junit.xml into the run folder; exit status 4 when any fails")
    List<String> asserts = new ArrayList<>();

    /** The assertions given; a malformed one is a bad argument (one line naming what is allowed). */
    List<Assertion> parse() {
        return asserts.stream().map(Assertion::parse).toList();
    }

    /**
     * Checks the run folder, prints the verdict table and where the JUnit report went, and writes it;
     * true when an assertion failed.
     */
    static boolean check(Path runDir, List<Assertion> assertions, PrintStream out) throws IOException {
        List<RunAssertions.Check> checks = RunAssertions.check(runDir, assertions);
        Path xml = RunAssertions.write(runDir, checks);
        out.print(RunAssertions.table(checks));
        GateSuite suite = RunAssertions.suite(runDir, checks);
        out.println(suite.failed() ? "assertions FAILED (exit status " + Main.EXIT_GATE_FAILED + "); JUnit: " + xml
                : "JUnit: " + xml);
        return suite.failed();
    }
}
