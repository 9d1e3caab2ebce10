package org.testbed.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.testbed.runfolder.ResultsCsv;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.report.ReportWriter;
import org.testbed.runfolder.report.RunPricing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Regenerate report.html in a run folder from its results.csv, steps.csv and environment.json;"
                + " with --price-per-hour or --prices, price the run first (steps.csv, capacity.csv and environment.json"
                + " get the costs; results.csv and samples.csv are not touched).")
final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR", description = "A run folder, e.g. results/r20250101T120000-k3x9")
    Path runDir;

    @Mixin
    PriceOptions price = new PriceOptions();

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(runDir.resolve(ResultsCsv.FILE))) {
            throw new IllegalArgumentException(runDir + " has no " + ResultsCsv.FILE + ": not a run folder");
        }
        Optional<PriceList> prices = price.list();
        if (prices.isPresent()) {
            System.out.println(RunPricing.apply(runDir, prices.get(), "./testbed report " + price.given()).describe());
        }
        System.out.println(ReportWriter.write(runDir));
        return 0;
    }
}
