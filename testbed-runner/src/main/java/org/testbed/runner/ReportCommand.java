package org.testbed.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.testbed.runfolder.ResultsCsv;
import org.testbed.runfolder.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Regenerate report.html in a run folder from its results.csv, steps.csv and environment.json.")
final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR", description = "A run folder, e.g. results/r20250101T120000-k3x9")
    Path runDir;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(runDir.resolve(ResultsCsv.FILE))) {
            throw new IllegalArgumentException(runDir + " has no " + ResultsCsv.FILE + ": not a run folder");
        }
        System.out.println(ReportWriter.write(runDir));
        return 0;
    }
}
