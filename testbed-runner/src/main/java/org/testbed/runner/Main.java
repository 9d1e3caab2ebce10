package org.testbed.runner;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code testbed-runner.jar}: every command of {@code ./testbed}, which only finds a JDK, builds this
 * jar when stale and hands over its arguments with {@code --root}.
 */
@Command(name = "testbed", version = "testbed-runner 0.1.0", usageHelpWidth = 100,
        customSynopsis = "./testbed <command> [arguments]",
        description = "How fast is a Java web stack on this machine, and why?",
        commandListHeading = "%nCommands:%n",
        subcommands = {CommandLine.HelpCommand.class, ServeCommand.class, TestCommand.class, JmhCommand.class, RunCommand.class, ReportCommand.class,
                CompareCommand.class, DeployCommand.class, MachineCommand.class, DriveCommand.class, FuzzCommand.class},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {Main.EXIT_0, Main.EXIT_1, Main.EXIT_2, Main.EXIT_3, Main.EXIT_4},
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  JAVA_HOME      the JDK used to build and to run variants that need JDK 17+",
            "  JAVA21_HOME    a JDK 21+ for virtual-thread variants when JAVA_HOME is older (otherwise the",
            "                 newest JDK 21+ under /usr/lib/jvm is used)",
            "  TESTBED_*, MEMCACHED_*   server settings, see README.md (\"Configuration\")",
            "",
            "Variants are listed in variants.conf; the HTTP contract is in docs/CONTRACT.md, the design",
            "and the results schema in docs/DESIGN.md.%n"})
public final class Main implements Runnable {
    /** A command that could not do its work: a build, a server, a file or a machine failed it. */
    static final int EXIT_FAILED = 1;
    /** Arguments the command cannot take, as picocli and most Unix tools use 2. */
    static final int EXIT_BAD_ARGUMENT = 2;
    /** A run that finished with problems (a variant skipped, the server's machine lost); the steps measured are kept. */
    static final int EXIT_INCOMPLETE = 3;
    /**
     * A gate failed: {@code compare --fail-on} found a figure slower beyond noise, or an {@code --assert} of
     * {@code run} or {@code report} a step on the wrong side of its bound. Distinct from every other status,
     * so that a build can tell a regression from a broken run.
     */
    static final int EXIT_GATE_FAILED = 4;

    // The exit statuses as --help lists them ("status:what"), here and in the commands that can end with them.
    static final String EXIT_0 = "0:Done (without --fail-on or --assert, whatever the figures say)";
    static final String EXIT_1 = "1:The command failed at its work (a build, a server, a file, a machine), or compare"
            + " matched no step";
    static final String EXIT_2 = "2:Bad arguments (an unknown name, a malformed value or gate), said in one line before"
            + " any work";
    static final String EXIT_3 = "3:run finished with problems (a variant skipped, the server's machine lost); the steps"
            + " measured are kept";
    static final String EXIT_4 = "4:A gate failed: compare --fail-on found a figure slower beyond noise, or an --assert"
            + " of run or report a step on the wrong side of its bound";
    private static final int LABEL_WIDTH = 29;

    @Spec
    CommandSpec spec;

    // Hidden, with --version: the command list ends with --help, as the overview is about the commands.
    @Option(names = {"-h", "--help"}, usageHelp = true, hidden = true)
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, hidden = true)
    boolean version;

    // Hidden: ./testbed always passes it; a user never needs to.
    @Option(names = "--root", paramLabel = "DIR", hidden = true,
            description = "The repository (default: $TESTBED_ROOT, else the folder holding variants.conf here or above)")
    Path root;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The command line with its pass-through commands, overview and one-line errors set up. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        DeployCommand.describeSettings(cli.getSubcommands().get("deploy"));
        // serve, test and jmh hand everything after their first word to the server, Maven or JMH.
        for (String passThrough : new String[] {"serve", "test", "jmh"}) {
            cli.getSubcommands().get(passThrough).setStopAtPositional(true).setUnmatchedOptionsArePositionalParams(true);
        }
        cli.getSubcommands().get("help").getCommandSpec().usageMessage().hidden(true); // "./testbed help", as before
        var sections = new java.util.LinkedHashMap<>(cli.getHelpSectionMap());
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, Main::commandList);
        cli.setHelpSectionMap(sections);
        cli.setParameterExceptionHandler((e, arguments) -> {
            CommandLine failed = e.getCommandLine();
            String command = failed.getParent() == null ? "" : failed.getCommandName() + " ";
            failed.getErr().println("testbed: " + e.getMessage() + " (see './testbed " + command + "--help')");
            return EXIT_BAD_ARGUMENT;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            int status;
            if (e instanceof IllegalArgumentException || e instanceof java.util.NoSuchElementException) {
                status = EXIT_BAD_ARGUMENT; // found once the command looked: an unknown variant, a bad value
            } else if (e instanceof IllegalStateException || e instanceof java.io.IOException
                    || e instanceof java.io.UncheckedIOException) {
                status = EXIT_FAILED;
            } else {
                throw e;
            }
            commandLine.getErr().println("testbed: " + e.getMessage());
            return status;
        });
        return cli;
    }

    /** The repository the commands work on. */
    Path root() {
        return RepositoryRoot.resolve(root);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /**
     * Each command with the arguments it takes and what it does (its header, else its description),
     * so that the overview reads like a manual's. Wrapped at spaces only: a file name like
     * results.csv stays whole.
     */
    private static String commandList(Help help) {
        if (help.commandSpec().subcommands().isEmpty()) {
            return ""; // the subcommands inherit this renderer
        }
        int width = help.commandSpec().usageMessage().width();
        StringBuilder list = new StringBuilder();
        for (CommandLine sub : help.commandSpec().subcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            if (!spec.usageMessage().hidden()) {
                String[] header = spec.usageMessage().header();
                String text = String.join(" ", header.length > 0 ? header : spec.usageMessage().description());
                list.append(entry(label(spec), text.replace("%n", " "), width));
            }
        }
        return list.append(entry("--help", "This text.", width)).toString();
    }

    /** The first custom synopsis line without "./testbed ", else the name, "[options]" and the positional parameters. */
    private static String label(CommandSpec spec) {
        String[] synopsis = spec.usageMessage().customSynopsis();
        if (synopsis.length > 0) {
            return synopsis[0].replaceFirst("^\\./testbed ", "");
        }
        StringBuilder label = new StringBuilder(spec.name());
        if (spec.options().stream().anyMatch(o -> !o.usageHelp() && !o.versionHelp() && !o.hidden())) {
            label.append(" [options]");
        }
        for (PositionalParamSpec parameter : spec.positionalParameters()) {
            label.append(' ').append(parameter.paramLabel());
        }
        return label.toString();
    }

    private static String entry(String label, String text, int width) {
        StringBuilder entry = new StringBuilder("  ").append(label);
        int column = entry.length();
        if (column + 2 > LABEL_WIDTH) {
            entry.append(System.lineSeparator());
            column = 0;
        }
        for (String word : text.split("\\s+")) {
            if (column > LABEL_WIDTH && column + 1 + word.length() > width) {
                entry.append(System.lineSeparator());
                column = 0;
            }
            if (column < LABEL_WIDTH) {
                entry.append(" ".repeat(LABEL_WIDTH - column));
                column = LABEL_WIDTH;
            } else {
                entry.append(' ');
                column++;
            }
            entry.append(word);
            column += word.length();
        }
        return entry.append(System.lineSeparator()).toString();
    }
}
