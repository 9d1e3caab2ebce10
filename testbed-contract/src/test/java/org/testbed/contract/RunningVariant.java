package org.testbed.contract;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantProcess;

/** One variant's jar running as a real process against its own real memcached. */
final class RunningVariant implements AutoCloseable {
    static final int MEMCACHED_TIMEOUT_MS = 1000;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    final Variant variant;
    final MemcachedProcess memcached;
    final VariantProcess process;
    final HttpProbe http;

    private RunningVariant(Variant variant, MemcachedProcess memcached, VariantProcess process) {
        this.variant = variant;
        this.memcached = memcached;
        this.process = process;
        this.http = new HttpProbe(process.baseUri());
    }

    static RunningVariant start(Variant variant, List<String> extraArgs) throws IOException {
        return start(variant, extraArgs, extraArgs.isEmpty() ? "" : String.join("", extraArgs).replaceAll("[^a-z]", ""));
    }

    /**
     * As {@link #start(Variant, List)}, logging to {@code target/variant-logs/VARIANT-LABEL.log}, so
     * that suites starting the same variant keep apart logs.
     */
    static RunningVariant start(Variant variant, List<String> extraArgs, String logLabel) throws IOException {
        Path java = Jdks.javaFor(variant.minJdk())
                .orElseThrow(() -> new IllegalStateException(variant.name() + ": " + Jdks.missing(variant.minJdk())));
        MemcachedProcess memcached = MemcachedProcess.start();
        List<String> args = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", "0",
                "--memcached-servers", memcached.address()));
        if (!extraArgs.contains("--memcached-timeout-ms")) { // a flag may be given only once
            args.addAll(List.of("--memcached-timeout-ms", Integer.toString(MEMCACHED_TIMEOUT_MS)));
        }
        args.addAll(extraArgs);
        Path log = Path.of("target", "variant-logs", variant.name() + (logLabel.isEmpty() ? "" : "-" + logLabel) + ".log");
        try {
            VariantProcess process = VariantProcess.start(variant, ContractVariants.repositoryRoot(), java,
                    List.of("-Xmx256m"), args, log, START_TIMEOUT);
            return new RunningVariant(variant, memcached, process);
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
