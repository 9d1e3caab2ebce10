package org.testbed.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.testbed.runner.build.Processes;
import org.testbed.runner.setup.ToolInstaller;
import org.testbed.runner.suite.ModuleResults;
import org.testbed.runner.suite.PomFile;
import org.testbed.runner.suite.RobustnessTable;
import org.testbed.runner.suite.TestReports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "test", customSynopsis = "./testbed test [--fast] [maven args]",
        header = {"The whole test suite, what CI runs. Installs what the tests use when run as root (memcached,"
                + " chromium, openssh, docker-compose, linux-perf, qemu-user-static and a cached arm64 JRE, podman and debootstrap; otherwise says what to install), then: ./mvnw verify (unit"
                + " tests, the HTTP contract suite against every variant started from its jar, a subset of it against one"
                + " variant per jar on an emulated arm64 JVM, docker/Dockerfile built with podman from local base images and"
                + " run for one variant per jar, the compose file brought up and the arm64 image run, the runner's"
                + " end-to-end runs, the Gatling and JMH smoke runs, the compose check and the deploy test over a"
                + " loopback sshd), then prints the contract and robustness tables. A failing module does not stop the"
                + " build (--fail-at-end: only the modules that need it are skipped); it ends with a table of every"
                + " module's tests, failures (+errors), skipped tests and time, read from its test reports, names the"
                + " modules skipped, and exits non-zero when anything failed. Extra arguments go to Maven,"
                + " e.g. -Dtestbed.variants=spring-tomcat. With --fast, the unit tests only, for the edit-and-test loop."})
final class TestCommand implements Callable<Integer> {
    static final Path CONTRACT_SUMMARY = Path.of("testbed-contract", "target", "contract-summary.txt");
    static final Path ROBUSTNESS_SUMMARY = Path.of("testbed-contract", "target", "robustness-summary.tsv");

    @ParentCommand
    Main main;

    /**
     * The JUnit tag of the unit tests that start a tool the JDK and a base system lack (memcached,
     * Chromium, docker-compose): the tools {@code test} installs and {@code test --fast} does not.
     */
    static final String PROCESS_TAG = "process";

    @Option(names = "--fast", description = "The unit tests only (./mvnw test): no contract suite, no end-to-end"
            + " runs, no images, and no test tagged '" + PROCESS_TAG + "' (those that start memcached, Chromium"
            + " or docker-compose), so nothing is installed. A few minutes, for the edit-and-test loop;"
            + " CI and a change's last check run the whole suite.")
    boolean fast;

    @Parameters(paramLabel = "MAVEN_ARG", description = "Arguments for Maven")
    List<String> mavenArgs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path root = main.root();
        // --fail-at-end: a failing module does not stop the build; Maven skips only the modules that need it.
        List<String> verify = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "-ntp", "--fail-at-end"));
        if (fast) {
            verify.addAll(List.of("test", "-DexcludedGroups=" + PROCESS_TAG));
        } else {
            new ToolInstaller(System.err).ensureTestTools();
            verify.add("verify");
        }
        verify.addAll(mavenArgs);
        // A second back: file times may be whole seconds; a report of this build is never older than its start.
        FileTime started = FileTime.fromMillis(System.currentTimeMillis() - 1000);
        ModuleResults results = new ModuleResults();
        int status = Processes.run(new ProcessBuilder(verify).directory(root.toFile()), results::mavenLine);
        if (!fast) {
            printSummary(root.resolve(CONTRACT_SUMMARY), started, "HTTP contract, per variant (each started from its jar as a real process):",
                    lines -> lines.stream().map(line -> "  " + line).toList());
            printSummary(root.resolve(ROBUSTNESS_SUMMARY), started,
                    "Robustness, per variant (faults, lost updates, hostile input, connection load, exposure):", RobustnessTable::render);
        }
        Map<String, Path> modules = moduleDirs(root);
        for (String module : modules.keySet()) {
            results.tests(module, TestReports.of(modules.get(module), started));
        }
        System.out.println();
        System.out.println("Tests, per module (their Surefire and Failsafe reports of this build):");
        results.render().forEach(System.out::println);
        return status != 0 ? status : results.failed() ? 1 : 0;
    }

    /**
     * A table a suite wrote, when it wrote it in this build: one left by an earlier build (its module
     * skipped, or not in this one) is not this build's.
     */
    private static void printSummary(Path file, FileTime started, String title, Function<List<String>, List<String>> render)
            throws IOException {
        if (Files.isRegularFile(file) && Files.getLastModifiedTime(file).compareTo(started) >= 0) {
            System.out.println();
            System.out.println(title);
            render.apply(Files.readAllLines(file)).forEach(System.out::println);
        }
    }

    /** Each module of the root pom by its artifactId (the name Maven's reactor summary gives it), the root's too. */
    static Map<String, Path> moduleDirs(Path root) throws IOException {
        Map<String, Path> dirs = new LinkedHashMap<>();
        Path rootPom = root.resolve("pom.xml");
        dirs.put(PomFile.artifactId(rootPom), root);
        for (String module : PomFile.modules(rootPom)) {
            Path dir = root.resolve(module);
            if (Files.isRegularFile(dir.resolve("pom.xml"))) {
                dirs.put(PomFile.artifactId(dir.resolve("pom.xml")), dir);
            }
        }
        return dirs;
    }
}
