package org.testbed.runner;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code testbed-runner.jar}: the commands behind {@code ./testbed run | report | compare | deploy}. */
@Command(name = "testbed", mixinStandardHelpOptions = true, version = "testbed-runner 0.1.0",
        description = "Runs the load steps, writes results.csv and report.html, compares runs.",
        subcommands = {RunCommand.class, ReportCommand.class, CompareCommand.class, DriveCommand.class,
                DeployCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new Main());
        DeployCommand.describeSettings(cli.getSubcommands().get("deploy"));
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException || e instanceof IllegalStateException
                    || e instanceof java.util.NoSuchElementException || e instanceof java.io.IOException
                    || e instanceof java.io.UncheckedIOException) {
                commandLine.getErr().println("testbed: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
