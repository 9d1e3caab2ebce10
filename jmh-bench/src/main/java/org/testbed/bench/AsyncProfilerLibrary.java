package org.testbed.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * async-profiler's native library for this machine, as the jmh-bench build unpacks it from the
 * {@code tools.profiler:async-profiler} jar into {@code jmh-bench/target/async-profiler/linux-<arch>/}.
 */
final class AsyncProfilerLibrary {
    private AsyncProfilerLibrary() {
    }

    static Path find(Path repositoryRoot) {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String platform = switch (arch) {
            case "amd64", "x86_64" -> "linux-x64";
            case "aarch64", "arm64" -> "linux-arm64";
            default -> throw new IllegalStateException("async-profiler ships no library for " + arch);
        };
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")) {
            throw new IllegalStateException("the bundled async-profiler libraries are for Linux only");
        }
        Path library = repositoryRoot.resolve("jmh-bench/target/async-profiler").resolve(platform)
                .resolve("libasyncProfiler.so");
        if (!Files.isRegularFile(library)) {
            throw new IllegalStateException(library + " is missing; build jmh-bench (./mvnw -pl jmh-bench -am package"
                    + " -DskipTests), which unpacks it from the async-profiler jar");
        }
        return library;
    }
}
