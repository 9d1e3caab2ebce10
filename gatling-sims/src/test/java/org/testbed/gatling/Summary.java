package org.testbed.gatling;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.Machine;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.scenario.LoadShape;

/**
 * One run, written as a run folder the runner reads ({@code ./testbed report}, {@code compare}):
 * {@code results.csv} in the runner's schema ({@link ResultsCsv}), one row per measured step,
 * {@code operations.csv} in the runner's schema too ({@link OperationsCsv}), each of those steps by
 * operation (its Gatling request name), a small {@code environment.json} (the machine Gatling ran on,
 * the run's settings), and {@code summary.json} with what only Gatling runs have (every window
 * including the warm-up, OK/KO counts, the knobs, the SLA search's verdicts) and every window and the
 * whole run by operation.
 *
 * @param variant the target's variant as its health check says, or empty
 * @param unit what a window's load counts: users ({@code concurrency}) or arrivals per second
 *             ({@code target_rps})
 * @param loadStartedAt when the first user started, or null if none did
 * @param operations the whole run by operation (window {@value RunStats#WHOLE_RUN}), then each window by operation
 * @param runLoad the load of a run without windows (MaxThroughput, ArrivalRate), NaN otherwise
 */
record Summary(String simulation, String runId, String injector, String target, String variant, String workload,
               String model, String shape, LoadUnit unit, boolean smoke, String startedAt, Instant loadStartedAt,
               long lanes, Map<String, String> knobs, RunStats.Row total, List<RunStats.Row> windows,
               List<RunStats.OperationRow> operations, double runLoad, Sla sla) {

    static final String DRIVER = "gatling";
    static final String SUMMARY_FILE = "summary.json";
    static final String ENVIRONMENT_FILE = "environment.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** What the load of a window counts. */
    enum LoadUnit {
        USERS, ARRIVALS_PER_SECOND
    }

    /**
     * The SLA search's result.
     *
     * @param capacityRps the highest offered rate whose window met the SLA, all lower ones too; 0 if none
     * @param firstBreach the label of the first window that broke it, or null
     * @param verdicts per window label, whether it met the SLA (windows never judged are absent)
     */
    record Sla(double p99BoundMs, double maxFailedPct, double capacityRps, String firstBreach,
               Map<String, Boolean> verdicts) {
    }

    /**
     * The rows of {@code results.csv}: one per window but the warm-up (a staircase level, an SLA
     * step, RealisticUsers' steady part) and but those no request started in (the SLA search stops
     * before its last steps), or one for the whole run when it has no windows. What Gatling cannot
     * know, the server's JDK, mode, CPU, memory and GC, is left empty, and so are the latencies of a
     * run without requests; {@code host}, {@code arch}, {@code cpu_model} and {@code cpus} are those
     * of the machine Gatling ran on.
     */
    List<ResultRow> resultRows() {
        String host = Machine.hostName();
        String arch = Machine.arch();
        String cpuModel = Machine.cpuModel();
        int cpus = Runtime.getRuntime().availableProcessors();
        List<ResultRow> rows = new ArrayList<>();
        for (RunStats.Row r : measured()) {
            String started = loadStartedAt == null ? startedAt : loadStartedAt.plus(r.offset()).toString();
            // Gatling sees neither the server's JDK and mode nor its CPU, memory or GC: those are empty fields.
            rows.add(new ResultRow(new ResultRow.Origin(runId, started, host, arch, cpuModel, cpus, ""),
                    key(r), "", DRIVER, new ResultRow.Throughput(r.seconds(), r.requests(), r.ko(), r.rps()),
                    latencies(r), ResultRow.ServerCost.UNKNOWN));
        }
        return rows;
    }

    /**
     * The rows of {@code operations.csv}: each row of {@code results.csv} by operation, keyed as that
     * row (repeat and iteration 1: a Gatling run is one sample of each step), with the figures of the
     * same window: a window's, or the whole run's for a run without windows.
     */
    List<OperationRecord> operationRecords() {
        List<OperationRecord> records = new ArrayList<>();
        for (RunStats.Row r : measured()) {
            String window = windows.isEmpty() ? RunStats.WHOLE_RUN : r.window();
            for (RunStats.OperationRow o : operations) {
                RunStats.Row f = o.figures();
                if (f.window().equals(window)) {
                    records.add(new OperationRecord(key(r), 1, 1, o.operation(), f.requests(), f.ko(), f.rps(),
                            latencies(f)));
                }
            }
        }
        return records;
    }

    /** The windows that are steps of the run: all but the warm-up and those no request started in; or the whole run. */
    private List<RunStats.Row> measured() {
        return windows.isEmpty() ? List.of(total)
                : windows.stream().filter(w -> !w.window().equals(LoadShape.WARMUP) && w.requests() > 0).toList();
    }

    /** The step a measured window is, as results.csv keys it. */
    private ResultRow.StepKey key(RunStats.Row r) {
        double load = windows.isEmpty() ? runLoad : r.load();
        boolean rate = unit == LoadUnit.ARRIVALS_PER_SECOND;
        return new ResultRow.StepKey(variant, workload, rate ? 0 : (int) Math.round(load), rate ? load : 0, null);
    }

    private static ResultRow.Latencies latencies(RunStats.Row r) {
        return new ResultRow.Latencies(latency(r, r.p50()), latency(r, r.p90()), latency(r, r.p99()),
                latency(r, r.p999()), latency(r, r.max()));
    }

    /** A latency of the row, or NaN (an empty field) when it had no request to measure. */
    private static double latency(RunStats.Row row, double ms) {
        return row.requests() == 0 ? Double.NaN : ms;
    }

    /** Writes the run folder's four files into {@code directory} (created if need be); returns them. */
    List<Path> writeTo(Path directory) {
        try {
            Files.createDirectories(directory);
            Path results = directory.resolve(ResultsCsv.FILE);
            Path operationsFile = directory.resolve(OperationsCsv.FILE);
            Path environment = directory.resolve(ENVIRONMENT_FILE);
            Path summary = directory.resolve(SUMMARY_FILE);
            ResultsCsv.write(results, resultRows());
            OperationsCsv.TABLE.write(operationsFile, operationRecords());
            JSON.writeValue(environment.toFile(), environment());
            JSON.writeValue(summary.toFile(), json());
            return List.of(results, operationsFile, environment, summary);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run's results into " + directory, e);
        }
    }

    /** As the runner's environment.json, as far as a Gatling run knows it: the run and the load generator's machine. */
    ObjectNode environment() {
        ObjectNode env = JSON.createObjectNode();
        ObjectNode run = env.putObject("run");
        run.put("run_id", runId);
        run.put("started_at", startedAt);
        run.put("driver", DRIVER);
        run.put("profile", "gatling " + simulation + (smoke ? " (smoke)" : ""));
        run.put("simulation", simulation);
        run.put("target", target);
        run.put("shape", shape);
        ObjectNode machine = env.putObject("machine");
        machine.put("host", Machine.hostName());
        machine.put("arch", Machine.arch());
        machine.put("cpus", Runtime.getRuntime().availableProcessors());
        machine.put("cpu_model", Machine.cpuModel());
        ObjectNode gatlingJvm = env.putObject("gatling_jvm");
        gatlingJvm.put("version", System.getProperty("java.runtime.version"));
        gatlingJvm.put("vendor", System.getProperty("java.vendor"));
        return env;
    }

    ObjectNode json() {
        ObjectNode j = JSON.createObjectNode();
        j.put("simulation", simulation);
        j.put("driver", DRIVER);
        j.put("run_id", runId);
        j.put("injector", injector);
        j.put("target", target);
        j.put("variant", variant);
        j.put("scenario", workload);
        j.put("model", model);
        j.put("shape", shape);
        j.put("smoke", smoke);
        j.put("started_at", startedAt);
        j.put("lanes", lanes);
        ObjectNode knobValues = j.putObject("knobs");
        knobs.forEach(knobValues::put);
        j.set("total", rowJson(total));
        ArrayNode windowArray = j.putArray("windows");
        windows.forEach(w -> windowArray.add(rowJson(w)));
        ArrayNode operationArray = j.putArray("operations");
        operations.forEach(o -> operationArray.add(rowJson(o.figures(), o.operation())));
        if (sla == null) {
            j.putNull("sla");
        } else {
            ObjectNode s = j.putObject("sla");
            number(s, "p99_bound_ms", sla.p99BoundMs());
            number(s, "max_failed_pct", sla.maxFailedPct());
            number(s, "capacity_rps", sla.capacityRps());
            s.put("first_breach", sla.firstBreach());
            ObjectNode verdicts = s.putObject("verdicts");
            sla.verdicts().forEach(verdicts::put);
        }
        return j;
    }

    private static ObjectNode rowJson(RunStats.Row r) {
        return rowJson(r, null);
    }

    /** A window's figures, or one operation's in it when {@code operation} is not null. */
    private static ObjectNode rowJson(RunStats.Row r, String operation) {
        ObjectNode n = JSON.createObjectNode();
        n.put("window", r.window());
        if (operation != null) {
            n.put("operation", operation);
        }
        number(n, "load", r.load());
        n.put("requests", r.requests());
        n.put("ok", r.ok());
        n.put("ko", r.ko());
        number(n, "duration_s", r.seconds());
        number(n, "rps", r.rps());
        number(n, "lat_p50_ms", r.p50());
        number(n, "lat_p90_ms", r.p90());
        number(n, "lat_p99_ms", r.p99());
        number(n, "lat_p999_ms", r.p999());
        number(n, "lat_max_ms", r.max());
        return n;
    }

    /** A figure, or null when it is not a number (JSON has no NaN). */
    private static void number(ObjectNode n, String name, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            n.putNull(name);
        } else {
            n.put(name, value);
        }
    }

    /** A figure for the console: whole numbers without decimals, others with three; empty when NaN. */
    static String num(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "";
        }
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format(Locale.ROOT, "%.3f", d);
    }
}
