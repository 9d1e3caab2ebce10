package org.testbed.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.gate.Assertion;
import org.testbed.runfolder.gate.RunAssertions;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.report.ReportWriter;
import org.testbed.runfolder.report.RunPricing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Regenerate report.html in a run folder from its results.csv, steps.csv and environment.json.",
                "With --price-per-hour or --prices, price the run first (steps.csv, capacity.csv and environment.json"
                        + " get the costs; results.csv and samples.csv are not touched).",
                "With --assert, check the run's steps against bounds afterwards, as run --assert does."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {Main.EXIT_0, Main.EXIT_1, Main.EXIT_2, Main.EXIT_4})
final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR", description = "A run folder, e.g. results/r20250101T120000-k3x9")
    Path runDir;

    @Mixin
    AssertOptions assertOptions = new AssertOptions();

    @Mixin
    PriceOptions price = new PriceOptions();

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(runDir.resolve(ResultsCsv.FILE))) {
            throw new IllegalArgumentException(runDir + " has no " + ResultsCsv.FILE + ": not a run folder");
        }
        List<Assertion> assertions = assertOptions.parse();
        if (!assertions.isEmpty()) {
            RunAssertions.requireScenarios(assertions, RunAssertions.scenarios(runDir));
        }
        Optional<PriceList> prices = price.list();
        if (prices.isPresent()) {
            System.out.println(RunPricing.apply(runDir, prices.get(), "./testbed report " + price.given()).describe());
        }
        System.out.println(ReportWriter.write(runDir));
        if (!assertions.isEmpty() && AssertOptions.check(runDir, assertions, System.out)) {
            return Main.EXIT_GATE_FAILED;
        }
        return 0;
    }
}
