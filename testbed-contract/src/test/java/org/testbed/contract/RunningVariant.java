package org.testbed.contract;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantProcess;

/** One variant's jar running as a real process against its own real memcached. */
final class RunningVariant implements AutoCloseable {
    static final int MEMCACHED_TIMEOUT_MS = 1000;

    final Variant variant;
    final MemcachedProcess memcached;
    final VariantProcess process;
    final HttpProbe http;
    /** From the start of the process to its ready line. */
    final Duration startedIn;

    private RunningVariant(Variant variant, MemcachedProcess memcached, VariantProcess process, Duration startedIn,
                           Duration requestTimeout) {
        this.variant = variant;
        this.memcached = memcached;
        this.process = process;
        this.http = new HttpProbe(process.baseUri(), requestTimeout);
        this.startedIn = startedIn;
    }

    static RunningVariant start(Variant variant, List<String> extraArgs) throws IOException {
        return start(variant, extraArgs, logLabel(extraArgs));
    }

    /** The label of a start's log file when its suite names none: derived from its flags. */
    static String logLabel(List<String> extraArgs) {
        return extraArgs.isEmpty() ? "" : String.join("", extraArgs).replaceAll("[^a-z]", "");
    }

    /**
     * As {@link #start(Variant, List)}, logging to {@code target/variant-logs/VARIANT-LABEL.log}, so
     * that suites starting the same variant keep apart logs.
     */
    static RunningVariant start(Variant variant, List<String> extraArgs, String logLabel) throws IOException {
        return start(variant, extraArgs, logLabel, VariantJvm.HOST);
    }

    /** As {@link #start(Variant, List, String)}, on the JVM {@code jvm}. */
    static RunningVariant start(Variant variant, List<String> extraArgs, String logLabel, VariantJvm jvm) throws IOException {
        List<String> launcher = jvm.launcher(variant);
        MemcachedProcess memcached = MemcachedProcess.start();
        List<String> args = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", "0",
                "--memcached-servers", memcached.address()));
        if (!extraArgs.contains("--memcached-timeout-ms")) { // a flag may be given only once
            args.addAll(List.of("--memcached-timeout-ms", Integer.toString(MEMCACHED_TIMEOUT_MS)));
        }
        args.addAll(extraArgs);
        Path log = Path.of("target", "variant-logs", variant.name() + (logLabel.isEmpty() ? "" : "-" + logLabel) + ".log");
        try {
            long start = System.nanoTime();
            VariantProcess process = VariantProcess.start(variant, ContractVariants.repositoryRoot(), launcher,
                    jvm.options(), args, log, jvm.startTimeout());
            return new RunningVariant(variant, memcached, process, Duration.ofNanos(System.nanoTime() - start),
                    jvm.requestTimeout());
        } catch (IOException | RuntimeException e) {
            memcached.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            process.close();
        } finally {
            memcached.close();
        }
    }
}
