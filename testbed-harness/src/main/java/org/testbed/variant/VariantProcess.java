package org.testbed.variant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A variant started from its packaged jar as a separate process, as users run it. Waits for the
 * ready line {@code testbed <variant> listening on http://HOST:PORT}, keeps the process output in
 * a log file, and stops the process (SIGTERM, then SIGKILL) when closed.
 */
public final class VariantProcess implements AutoCloseable {
    public static final Pattern READY_LINE =
            Pattern.compile("^testbed (\\S+) listening on (https?)://(\\S+):(\\d+)$");
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final int TAIL_LINES = 40;

    private final Variant variant;
    private final Process process;
    private final Path log;
    private final URI baseUri;
    private final String reportedName;
    /** The last {@value #TAIL_LINES} lines of output, kept by the pump for failure messages. */
    private final Deque<String> tail;

    private VariantProcess(Variant variant, Process process, Path log, URI baseUri, String reportedName,
                           Deque<String> tail) {
        this.variant = variant;
        this.process = process;
        this.log = log;
        this.baseUri = baseUri;
        this.reportedName = reportedName;
        this.tail = tail;
    }

    /**
     * Starts {@code java [jvmArgs] -jar <jar> --mode <mode> [args]} and waits up to
     * {@code startTimeout} for the ready line. The printed host 0.0.0.0 or :: becomes loopback.
     */
    public static VariantProcess start(Variant variant, Path repositoryRoot, Path java, List<String> jvmArgs,
                                       List<String> args, Path log, Duration startTimeout) throws IOException {
        return start(variant, repositoryRoot, List.of(java.toString()), jvmArgs, args, log, startTimeout);
    }

    /**
     * As above with a launcher of several words where {@code java} stands, e.g. an emulator
     * followed by the {@code java} it runs.
     */
    public static VariantProcess start(Variant variant, Path repositoryRoot, List<String> launcher, List<String> jvmArgs,
                                       List<String> args, Path log, Duration startTimeout) throws IOException {
        Path jar = variant.jarIn(repositoryRoot);
        if (!Files.isRegularFile(jar)) {
            throw new IOException("The jar of " + variant.name() + " is missing: " + jar
                    + " (build it: ./mvnw -pl " + variant.module() + " -am package -DskipTests)");
        }
        List<String> command = new ArrayList<>(launcher);
        command.addAll(jvmArgs);
        command.add("-jar");
        command.add(jar.toString());
        command.add("--mode");
        command.add(variant.mode());
        command.addAll(args);
        return start(variant, command, log, startTimeout);
    }

    /** Starts an arbitrary command expected to print the ready line (or to fail trying). */
    public static VariantProcess start(Variant variant, List<String> command, Path log, Duration startTimeout)
            throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        Deque<String> tail = new ArrayDeque<>();
        Thread pump = new Thread(() -> pump(process, log, ready, tail), "output-" + variant.name());
        pump.setDaemon(true);
        pump.start();
        try {
            Matcher line = ready.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
            String host = line.group(3).replace("[", "").replace("]", "");
            if (host.equals("0.0.0.0") || host.equals("::")) {
                host = "127.0.0.1";
            }
            URI base = URI.create(line.group(2) + "://" + (host.contains(":") ? "[" + host + "]" : host)
                    + ":" + line.group(4));
            return new VariantProcess(variant, process, log, base, line.group(1), tail);
        } catch (TimeoutException | ExecutionException | InterruptedException e) {
            destroy(process);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String why = e instanceof TimeoutException ? "printed no ready line within " + startTimeout
                    : "exited with status " + exitValue(process) + " before it was ready";
            throw new IOException(variant.name() + " " + why + ". Command: " + String.join(" ", command)
                    + "\nLast output (" + log + "):\n" + String.join("\n", snapshot(tail)));
        }
    }

    private static void pump(Process process, Path log, CompletableFuture<Matcher> ready, Deque<String> tail) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
            String line;
            while ((line = reader.readLine()) != null) {
                out.println(line);
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
                if (!ready.isDone()) {
                    Matcher matcher = READY_LINE.matcher(line.strip());
                    if (matcher.matches()) {
                        ready.complete(matcher);
                    }
                }
            }
        } catch (IOException e) {
            // The process went away; the waiter learns it from the exit status below.
        }
        ready.completeExceptionally(new IOException("process output ended"));
    }

    private static List<String> snapshot(Deque<String> tail) {
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }

    public Variant variant() {
        return variant;
    }

    /** {@code http://127.0.0.1:PORT}: where the variant listens, without the /testbed path. */
    public URI baseUri() {
        return baseUri;
    }

    /** The variant name the process printed in its ready line. */
    public String reportedName() {
        return reportedName;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /**
     * The last {@value #TAIL_LINES} lines the process printed so far, for a failure message where
     * the log file will not be kept (CI keeps a build's output, not its files).
     */
    public List<String> recentOutput() {
        return snapshot(tail);
    }

    @Override
    public void close() {
        destroy(process);
    }

    private static void destroy(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String exitValue(Process process) {
        try {
            return process.waitFor(1, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "(still running)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(unknown)";
        }
    }
}
