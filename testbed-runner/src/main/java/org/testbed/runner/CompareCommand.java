package org.testbed.runner;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.compare.CapacityComparison;
import org.testbed.runfolder.compare.CompareWriter;
import org.testbed.runfolder.compare.Comparison;
import org.testbed.runfolder.compare.OperationComparison;
import org.testbed.runfolder.gate.FailOn;
import org.testbed.runfolder.gate.GateSuite;
import org.testbed.runfolder.gate.JUnitXml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Put two runs side by side: steps matched by variant, scenario and level, ratios B/A of"
                + " throughput, p99 and CPU ms/request with confidence intervals from the repeats (samples.csv),"
                + " and a verdict per figure: faster, slower, within noise, or no noise estimate (a single sample).",
                "Prints what changed beyond noise, then the full table; writes compare.csv and an HTML page.",
                "E.g. x86_64 vs arm64, or JDK 17 vs 25 on one machine."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {Main.EXIT_0, Main.EXIT_1, Main.EXIT_2, Main.EXIT_4})
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR_A", description = "The baseline run folder (or its results.csv)")
    Path a;

    @Parameters(index = "1", paramLabel = "DIR_B", description = "The run compared with it")
    Path b;

    @Option(names = "--out", paramLabel = "FILE", description = "The HTML page (default: DIR_B/compare-<A>.html);"
            + " compare.csv is written beside it")
    Path out;

    @Option(names = "--conditions", paramLabel = "A_SET:B_SET",
            description = "Price a condition: match A's steps under A_SET with B's under B_SET, e.g. plain:metrics or"
                    + " plain:tls or store0ms:store10ms (A and B may be the same run, made with --conditions plain,metrics); without it steps"
                    + " match only under equal conditions")
    String conditions;

    @Option(names = "--fail-on", paramLabel = "FIGURES",
            description = "Exit with status 4 when a figure of B is slower than A's beyond noise (verdict slower; for rps"
                    + " lower, for p99 and cpu higher): slower (rps, p99, cpu and cost) or some of rps, p99, cpu, cost, runq_wait, involuntary_cs, comma-separated,"
                    + " each with an optional smallest change >PCT%%, e.g. slower, rps,p99, 'slower>5%%', 'p99>10%%'. A"
                    + " figure with no noise estimate is inconclusive, never passed. compare-junit.xml (beside"
                    + " compare.csv, with or without this option) has one test case per step and figure")
    List<String> failOn;

    @Override
    public Integer call() throws Exception {
        FailOn gate = failOn == null ? null : FailOn.parse(failOn);
        for (Path p : new Path[] {a, b}) {
            if (!Files.exists(CompareWriter.csv(p))) {
                throw new IllegalArgumentException(p + " has no results.csv");
            }
        }
        Comparison c;
        OperationComparison ops;
        if (conditions != null) {
            String[] sets = conditions.strip().split(":");
            if (sets.length != 2) {
                throw new IllegalArgumentException("--conditions takes A_SET:B_SET, e.g. plain:metrics, not '" + conditions + "'");
            }
            Conditions fromA = Conditions.parse(sets[0]);
            Conditions fromB = Conditions.parse(sets[1]);
            c = CompareWriter.load(a, fromA, b, fromB);
            ops = CompareWriter.operations(a, fromA, b, fromB, c);
            System.out.println("A under " + fromA.label() + ", B under " + fromB.label() + ": each ratio B/A is what "
                    + (fromA.equals(Conditions.PLAIN) ? fromB.label() : fromB.label() + " instead of " + fromA.label())
                    + " costs (steps shown under A's conditions)");
        } else {
            c = CompareWriter.load(a, b);
            ops = CompareWriter.operations(a, b, c);
        }
        System.out.print(CompareWriter.platforms(a, b));
        System.out.print(CompareWriter.table(c));
        System.out.print(ops.text());
        System.out.print(CompareWriter.counters(a, b, c).text());
        System.out.print(CapacityComparison.load(CompareWriter.dir(a), CompareWriter.dir(b)).text());
        Path page = out != null ? out : (Files.isDirectory(b) ? b : b.toAbsolutePath().getParent())
                .resolve("compare-" + (Files.isDirectory(a) ? a : a.toAbsolutePath().getParent()).toAbsolutePath().normalize().getFileName() + ".html");
        CompareWriter.html(a, b, c, ops, page);
        Path csv = CompareWriter.writeCsv(c, page.toAbsolutePath().resolveSibling(CompareWriter.CSV_FILE));
        Path opsCsv = CompareWriter.writeOperationsCsv(ops, page.toAbsolutePath().resolveSibling(OperationComparison.FILE));
        Path summary = page.toAbsolutePath().resolveSibling(CompareWriter.SUMMARY_FILE);
        Files.writeString(summary, CompareWriter.markdown(c, a.toString(), b.toString()), StandardCharsets.UTF_8);
        Path flame = page.toAbsolutePath().resolveSibling(page.getFileName().toString().replaceFirst("\\.html$", "") + "-flame");
        String diffs = Files.isDirectory(flame) ? "; differential flame graphs: " + flame : "";
        // Without --fail-on the JUnit report says what --fail-on slower would, and the exit status ignores it.
        GateSuite suite = (gate != null ? gate : FailOn.every()).check(c, a.toString(), b.toString());
        Path junit = JUnitXml.write(page.toAbsolutePath().resolveSibling(FailOn.FILE), suite);
        System.out.println("matched " + c.matched().size() + " step(s); page: " + page + "; table: " + csv + "; per operation: " + opsCsv + "; summary: " + summary + diffs
                + "; JUnit: " + junit);
        if (c.matched().isEmpty()) {
            return Main.EXIT_FAILED;
        }
        if (gate != null) {
            System.out.print(FailOn.text(suite, "--fail-on " + gate.text()));
            if (suite.failed()) {
                return Main.EXIT_GATE_FAILED;
            }
        }
        return 0;
    }
}
