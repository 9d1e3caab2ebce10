package org.testbed.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.testbed.runner.build.Processes;
import org.testbed.runner.setup.ToolInstaller;
import org.testbed.runner.suite.RobustnessTable;
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
                + " loopback sshd), then prints the contract and robustness tables. Extra arguments go to Maven,"
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
        List<String> verify = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "-ntp"));
        if (fast) {
            verify.addAll(List.of("test", "-DexcludedGroups=" + PROCESS_TAG));
        } else {
            new ToolInstaller(System.err).ensureTestTools();
            verify.add("verify");
        }
        verify.addAll(mavenArgs);
        int status = Processes.run(new ProcessBuilder(verify).directory(root.toFile()).inheritIO());
        if (fast) {
            return status; // no contract or robustness table: a summary left by an earlier full run would be stale
        }
        Path contract = root.resolve(CONTRACT_SUMMARY);
        if (Files.isRegularFile(contract)) {
            System.out.println();
            System.out.println("HTTP contract, per variant (each started from its jar as a real process):");
            Files.readAllLines(contract).forEach(line -> System.out.println("  " + line));
        }
        Path robustness = root.resolve(ROBUSTNESS_SUMMARY);
        if (Files.isRegularFile(robustness)) {
            System.out.println();
            System.out.println("Robustness, per variant (faults, lost updates, hostile input, connection load, exposure):");
            RobustnessTable.render(Files.readAllLines(robustness)).forEach(System.out::println);
        }
        return status;
    }
}
