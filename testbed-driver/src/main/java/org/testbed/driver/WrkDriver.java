package org.testbed.driver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testbed.driver.LoadResult.ClientLatency;
import org.testbed.driver.LoadResult.OperationFigures;
import org.testbed.driver.LoadResult.Throughput;
import org.testbed.driver.LoadResult.TransportCounts;
import org.testbed.driver.proc.ClockTicks;
import org.testbed.driver.proc.ProcStat;
import org.testbed.scenario.Operations;
import org.testbed.scenario.Workload;

/**
 * wrk 4 (C, epoll, the seeds' tool) with the Lua script the scenario library generates. Closed
 * model only (wrk has no arrival rate; wrk2 is not packaged), latency from request write to
 * response (coordinated omission under overload), non-2xx and socket errors counted, response
 * bodies not checked; the requests in flight when its duration is over, which wrk drops without a word,
 * are counted as unfinished by the script ({@link LoadResult#unfinished()}). Its CPU time is read
 * from this JVM's {@code cutime}/{@code cstime}
 * (children's CPU, added by the kernel when wrk exits and is reaped), so it is exact.
 *
 * <p>wrk reports no per-second counts: the result's {@link LoadResult#perSecond()} is empty. Being
 * a closed model, each request is sent when intended: the uncorrected latency is the latency and
 * the schedule lag is 0.
 *
 * <p>Nor figures per operation: the script's {@code done()} is handed one latency histogram for every
 * request of the step, whatever its method. A workload of one route is one operation, whose figures
 * are the step's; for the mix the result says why it has none ({@link #ONE_HISTOGRAM}).
 */
public final class WrkDriver implements LoadDriver {
    public static final String NAME = "wrk";
    /** Why a wrk step of several operations has no figures per operation. */
    public static final String ONE_HISTOGRAM = "wrk keeps one latency histogram for all requests";
    private static final Pattern SUMMARY = Pattern.compile(
            "testbed-wrk requests=(\\d+) errors=(\\d+) rps=([\\d.]+) p50_ms=([\\d.]+) p90_ms=([\\d.]+)"
                    + " p99_ms=([\\d.]+) p999_ms=([\\d.]+) max_ms=([\\d.]+)(?: unfinished=(\\d+))?");

    private final Path binary;
    private final Path workDir;
    private final Duration requestTimeout;

    public WrkDriver(Path binary, Path workDir, Duration requestTimeout) {
        this.binary = binary;
        this.workDir = workDir;
        this.requestTimeout = requestTimeout;
    }

    /** wrk on the PATH (or $WRK_BIN), if installed. */
    public static Path find() {
        String configured = System.getenv("WRK_BIN");
        if (configured != null && !configured.isBlank() && Files.isExecutable(Path.of(configured))) {
            return Path.of(configured);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "wrk");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return Files.isExecutable(Path.of("/usr/bin/wrk")) ? Path.of("/usr/bin/wrk") : null;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(Workload workload, Level level) {
        return !level.isOpen() && Scenarios.wrkCanDrive(workload);
    }

    @Override
    public LoadResult run(Target target, Workload workload, Level level, Duration duration, int loadCpus)
            throws IOException, InterruptedException {
        if (!supports(workload, level)) {
            throw new IllegalArgumentException("wrk cannot drive " + workload.name() + " at " + level.label());
        }
        int connections = level.concurrency();
        int threads = Math.max(1, Math.min(loadCpus, connections));
        Files.createDirectories(workDir);
        Path script = Files.createTempFile(workDir, "wrk-" + workload.name() + "-", ".lua");
        Files.writeString(script, Scenarios.wrkScript(workload, threads, connections));
        long seconds = Math.max(1, (duration.toMillis() + 999) / 1000);
        List<String> command = new ArrayList<>(List.of(binary.toString(), "-t" + threads, "-c" + connections,
                "-d" + seconds + "s", "--timeout", Math.max(1, requestTimeout.toSeconds()) + "s",
                "-s", script.toString(), target.url()));
        ProcStat before = ProcStat.self();
        Process wrk = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = wrk.getInputStream().readAllBytes();
        if (!wrk.waitFor(seconds + 30, TimeUnit.SECONDS)) {
            wrk.destroyForcibly();
            throw new IOException("wrk did not finish: " + String.join(" ", command));
        }
        ProcStat after = ProcStat.self();
        String text = new String(out, StandardCharsets.UTF_8);
        if (wrk.exitValue() != 0 || !SUMMARY.matcher(text).find()) {
            throw new IOException("wrk failed (exit " + wrk.exitValue() + "): " + String.join(" ", command) + "\n" + text);
        }
        double cpuMs = ClockTicks.toMillis(after.minus(before).childTicks());
        String raw = "$ " + String.join(" ", command) + "\n" + text
                + String.format(Locale.ROOT, "driver_cpu_ms=%.0f (children's CPU of the runner over the step)%n", cpuMs);
        return result(workload, text, seconds, connections, cpuMs, raw);
    }

    /**
     * The result of a wrk run of {@code workload} whose output is {@code text} (holding the script's
     * summary line): its totals, and its one operation when the workload has one route; a workload of
     * several operations gets none, and {@link #ONE_HISTOGRAM} says why.
     */
    static LoadResult result(Workload workload, String text, long seconds, int connections, double cpuMs, String raw) {
        Matcher m = SUMMARY.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException("no testbed-wrk summary line in wrk's output:\n" + text);
        }
        long requests = Long.parseLong(m.group(1));
        long errors = Long.parseLong(m.group(2));
        double rps = Double.parseDouble(m.group(3));
        double window = rps > 0 ? requests / rps : seconds;
        Latency latency = new Latency(Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5)),
                Double.parseDouble(m.group(6)), Double.parseDouble(m.group(7)), Double.parseDouble(m.group(8)));
        // wrk drops the requests in flight when its duration is over; the script counts them (at most one a connection).
        long unfinished = m.group(9) == null ? 0 : Math.min(connections, Long.parseLong(m.group(9)));
        Throughput throughput = new Throughput(requests, errors, window, new long[0], unfinished);
        List<String> operations = Operations.of(workload).labels();
        boolean single = operations.size() == 1;
        List<OperationFigures> figures = single && requests > 0
                ? List.of(new OperationFigures(operations.get(0), requests, errors, throughput.rps(), latency)) : List.of();
        return new LoadResult(NAME, throughput, ClientLatency.closedModel(latency), cpuMs, connections,
                TransportCounts.NONE, raw, figures, IntervalLog.NONE, single ? "" : ONE_HISTOGRAM);
    }
}
