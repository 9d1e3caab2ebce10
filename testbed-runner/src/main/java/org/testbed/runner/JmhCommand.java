package org.testbed.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.testbed.runner.build.ModuleJar;
import org.testbed.runner.build.Processes;
import org.testbed.runner.build.StaleJars;
import org.testbed.variant.Jdks;
import org.testbed.variant.VariantManifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "jmh", customSynopsis = "./testbed jmh [regex] [options]",
        header = {"Build jmh-bench (and the variant jars, when ServerBenchmark is selected) if stale, then run"
                + " the JMH benchmarks matching regex (all by default) with JSON results in"
                + " results/jmh-<timestamp>.json. Other options go to JMH (-p variant=vertx, -prof gc, -f 1, -l,"
                + " -h ...); --profile-async adds CPU flame graphs (benchmark and server side) under"
                + " results/jmh-<timestamp>-async/. See jmh-bench/README.md."})
final class JmhCommand implements Callable<Integer> {
    static final ModuleJar BENCHMARKS = new ModuleJar("jmh-bench", "jmh-bench/target/benchmarks.jar");
    private static final String PROFILE_ASYNC = "--profile-async";
    /** JMH options that list or explain instead of running: no build of the variants, no results file. */
    private static final Set<String> NO_RUN = Set.of("-l", "-lp", "-lrf", "-lprof", "-h");
    private static final String SERVER_BENCHMARK = "org.testbed.bench.ServerBenchmark.";

    @ParentCommand
    Main main;

    @Parameters(paramLabel = "ARG", description = "[regex] then JMH options, and --profile-async")
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path root = main.root();
        List<String> selection = new ArrayList<>(); // the regex, if any: JMH takes it before its options
        List<String> options = new ArrayList<>();
        boolean profile = false;
        for (int i = 0; i < arguments.size(); i++) {
            String arg = arguments.get(i);
            if (i == 0 && !arg.startsWith("-")) {
                selection.add(arg);
            } else if (arg.equals(PROFILE_ASYNC)) {
                profile = true;
            } else {
                options.add(arg);
            }
        }
        Path java = Jdks.javaFor(17).orElseThrow(() -> new IllegalStateException(
                "a JDK 17 or newer is needed to run the benchmarks (set JAVA_HOME)"));
        StaleJars jars = StaleJars.in(root);
        jars.buildStale(List.of(BENCHMARKS));
        List<String> jmh = new ArrayList<>(List.of(java.toString(), "-jar", root.resolve(BENCHMARKS.jar()).toString()));
        jmh.addAll(selection);
        if (options.stream().anyMatch(NO_RUN::contains)) {
            jmh.addAll(options);
            return Processes.run(new ProcessBuilder(jmh).directory(root.toFile()).inheritIO());
        }
        // ServerBenchmark starts variants from their jars: build the stale ones first (never skip one).
        if (selects(jmh, SERVER_BENCHMARK, root)) {
            VariantManifest manifest = VariantManifest.load(root.resolve(VariantManifest.FILE_NAME));
            jars.buildStale(manifest.variants().stream().map(v -> new ModuleJar(v.module(), v.jar())).toList());
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        Path results = root.resolve("results");
        Files.createDirectories(results);
        Path out = results.resolve("jmh-" + stamp + ".json");
        String profileDir = profile ? asyncProfile(root, results.resolve("jmh-" + stamp + "-async"), options) : null;
        // -foe true: a benchmark that fails (a wrong answer, a variant that does not start) fails the run.
        if (!options.contains("-foe")) {
            options.add("-foe");
            options.add("true");
        }
        jmh.addAll(List.of("-rf", "json", "-rff", out.toString()));
        jmh.addAll(options);
        ProcessBuilder run = new ProcessBuilder(jmh).directory(root.toFile()).inheritIO();
        if (profileDir != null) {
            run.environment().put("TESTBED_JMH_SERVER_PROFILE", profileDir);
        }
        int status = Processes.run(run);
        if (status == 0) {
            System.err.println("testbed: results: " + out);
        }
        return status;
    }

    /**
     * With {@code --profile-async}: JMH's async profiler into {@code dir}, added to {@code options};
     * returns the directory.
     */
    private static String asyncProfile(Path root, Path dir, List<String> options) throws IOException {
        Path library = asyncProfilerLibrary(root);
        Files.createDirectories(dir);
        options.add("-prof");
        options.add("async:libPath=" + library + ";output=flamegraph;dir=" + dir);
        System.err.println("testbed: flame graphs go to " + dir);
        // ServerBenchmark attaches the same profiler to the variant it starts when this is set.
        return dir.toString();
    }

    /** Whether the benchmarks {@code jmh} would run include one whose name starts with {@code prefix}. */
    private static boolean selects(List<String> jmh, String prefix, Path root) throws IOException {
        List<String> list = new ArrayList<>(jmh);
        list.add("-l");
        Path listing = Files.createTempFile("jmh-list", ".txt");
        try {
            int status = Processes.run(new ProcessBuilder(list).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(listing.toFile()));
            List<String> lines = Files.readAllLines(listing, StandardCharsets.UTF_8);
            if (status != 0) {
                throw new IllegalStateException("listing the benchmarks failed: " + String.join(" ", lines));
            }
            return lines.stream().anyMatch(line -> line.startsWith(prefix));
        } finally {
            Files.deleteIfExists(listing);
        }
    }

    private static Path asyncProfilerLibrary(Path root) {
        String arch = System.getProperty("os.arch");
        String platform = switch (arch) {
            case "amd64", "x86_64" -> "linux-x64";
            case "aarch64", "arm64" -> "linux-arm64";
            default -> throw new IllegalStateException("async-profiler ships no library for " + arch);
        };
        Path library = root.resolve("jmh-bench/target/async-profiler").resolve(platform).resolve("libasyncProfiler.so");
        if (!Files.isRegularFile(library)) {
            throw new IllegalStateException(library + " is missing; rebuild jmh-bench (./mvnw -pl jmh-bench -am package -DskipTests)");
        }
        return library;
    }
}
