package org.testbed.runfolder.report;

import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.environment.ServerPlatform;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.Sla;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.summary.RunSummary;
import org.testbed.runfolder.timeline.StepTimelines;
import org.testbed.runfolder.figure.Figure;

/**
 * Writes {@code report.html} for a run folder: one self-contained file (CSS, script and data
 * inlined, no network) whose small SVG renderer draws rps and p99 against the level per variant,
 * CPU ms per request (user and system stacked), the percentile table, the environment, and for
 * the delay scenario the Little's-law bound of the sync variants. A run with repeats shows each
 * step's spread from steps.csv (error bars: the confidence interval of the median), the steps
 * that were not steady (ringed on the charts, marked in the tables), the warm-up each variant
 * used, and a warning when the variants ran on different JDKs. A run with {@code --sla} leads with
 * the capacities found (a bar chart with each capacity's range over the passes, and a table with
 * every search's probes and why it stopped), the probes themselves drawn below like any open-model step. A run with a
 * price ({@code environment.json}'s {@code price}) gets the cost of a million requests beside each throughput chart,
 * from steps.csv's cost columns, with error bars when repeated. When the page has rendered it
 * sets {@code data-render="ok"} on {@code <body>} (or {@code "error"} with the messages in
 * {@code #render-errors}), which the headless-browser test reads.
 *
 * <p>A run measured by testbed-nio also gets, per scenario, each operation's figures
 * (operations.csv, medians over the samples) and, one click from each step's row, the step through
 * time: each sample's throughput, p50 and p99 per second and a latency heat map from its interval
 * log, with the server's GC per second marked where the runner read it ({@link StepTimelines}).
 * That part of the page is its own script, {@code timeline.js}, which {@code report.js} calls.
 */
public final class ReportWriter {
    public static final String FILE = "report.html";

    private ReportWriter() {
    }

    /** Regenerates {@code report.html} in {@code runDir}; returns its path. */
    public static Path write(Path runDir) throws IOException {
        List<ResultRow> rows = ResultsCsv.read(runDir.resolve(ResultsCsv.FILE));
        List<StepRecord> steps = StepsCsv.TABLE.read(runDir.resolve(StepsCsv.FILE));
        JsonNode env = EnvironmentFile.read(runDir.resolve(EnvironmentFile.NAME));
        ObjectNode data = EnvironmentFile.JSON.createObjectNode();
        data.set("rows", rowsJson(rows, steps));
        data.set("env", env);
        // An emulated server's figures are mechanics, not performance: said above them, in the environment's words.
        ServerPlatform.of(env).caveat().ifPresent(caveat -> data.put("emulation_note", caveat));
        List<CounterRecord> counters = CountersCsv.medians(CountersCsv.TABLE.read(runDir.resolve(CountersCsv.FILE)));
        if (!counters.isEmpty()) {
            data.set("counters", countersJson(counters));
        }
        attachRecordings(data, rows, JfrCsv.medians(JfrCsv.TABLE.read(runDir.resolve(JfrCsv.FILE))));
        List<CapacityCsv.Summary> capacities = CapacityCsv.summaries(CapacityCsv.TABLE.read(runDir.resolve(CapacityCsv.FILE)));
        if (!capacities.isEmpty()) {
            data.set("capacity", capacityJson(capacities));
        }
        List<OperationRecord> operations = OperationsCsv.TABLE.read(runDir.resolve(OperationsCsv.FILE));
        if (!operations.isEmpty()) {
            data.set("operations", OperationsJson.of(operations));
        }
        List<SampleRecord> samples = SamplesCsv.TABLE.read(runDir.resolve(SamplesCsv.FILE));
        attachForkMeans((ArrayNode) data.get("rows"), rows, samples);
        Map<ResultRow.StepKey, String> stepRaw = new HashMap<>();
        steps.forEach(s -> stepRaw.put(s.key(), s.files().raw()));
        ObjectNode timelines = StepTimelines.of(runDir, rows, samples, stepRaw);
        if (!timelines.isEmpty()) {
            data.set("timelines", timelines);
            data.set("timeline_buckets_ms", StepTimelines.bucketEdges());
            // Each step's row names its entry, so the page finds it without rebuilding a key.
            timelines.fieldNames().forEachRemaining(i -> ((ObjectNode) data.get("rows").get(Integer.parseInt(i))).put("timeline", i));
        }
        // The answer first: the page opens with it, and summary.md holds it for a CI job or a pull request.
        RunSummary summary = RunSummary.of(runDir);
        data.set("summary", summary.json());
        summary.write(runDir);
        String title = "testbed run " + (rows.isEmpty() ? runDir.getFileName() : rows.get(0).origin().runId());
        Path file = runDir.resolve(FILE);
        Files.writeString(file, page(title, "report", data), StandardCharsets.UTF_8);
        return file;
    }

    /**
     * The rows of a run as JSON objects keyed by results.csv's columns, each with its steps.csv record
     * merged in under {@code step}, keyed by steps.csv's columns: the page reads the run folder's own
     * names, one convention, and a column added to either table reaches it without a line here.
     */
    public static ArrayNode rowsJson(List<ResultRow> rows, List<StepRecord> steps) {
        Map<ResultRow.StepKey, StepRecord> byKey = new HashMap<>();
        for (StepRecord step : steps) {
            byKey.put(step.key(), step);
        }
        ArrayNode array = EnvironmentFile.JSON.createArrayNode();
        for (ResultRow row : rows) {
            ObjectNode n = ResultsCsv.TABLE.json(row);
            array.add(n);
            StepRecord step = byKey.get(row.key());
            if (step != null) {
                ObjectNode s = StepsCsv.TABLE.json(step);
                String sla = step.setup().sla();
                if (!sla.isEmpty()) {
                    // The objective as numbers, parsed here once, for the chart's line.
                    s.put("sla_percentile", Sla.parse(sla).percentile());
                    s.put("sla_bound_ms", Sla.parse(sla).boundMs());
                }
                n.set("step", s);
            }
        }
        return array;
    }

    /**
     * Each step's fork means under {@code fork_means} of its row ({@code rps}, {@code p99}, {@code cpu}:
     * {@code [[fork, mean], ...]}, the geometric mean of each fork's iterations), for steps measured in
     * two forks or more: the page draws them as dots over the bar, so that two JVMs 13 % apart are
     * seen as two modes and not as a long error bar alone.
     */
    static void attachForkMeans(ArrayNode json, List<ResultRow> rows, List<SampleRecord> samples) {
        Map<ResultRow.StepKey, List<SampleRecord>> byStep = new HashMap<>();
        samples.forEach(s -> byStep.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s));
        for (int i = 0; i < rows.size(); i++) {
            List<SampleRecord> step = SamplesCsv.kept(byStep.getOrDefault(rows.get(i).key(), List.of()));
            if (step.stream().mapToInt(SampleRecord::repeat).distinct().count() < 2) {
                continue;
            }
            ObjectNode means = ((ObjectNode) json.get(i)).putObject("fork_means");
            forkMeans(means.putArray("rps"), step, f -> f.rps());
            forkMeans(means.putArray("p99"), step, f -> f.latP99Ms());
            forkMeans(means.putArray("cpu"), step, f -> f.cpuMsPerReq());
        }
    }

    private static void forkMeans(ArrayNode out, List<SampleRecord> step, ToDoubleFunction<SampleRecord.Figures> figure) {
        Map<Integer, List<Double>> logs = new TreeMap<>();
        for (SampleRecord s : step) {
            double v = figure.applyAsDouble(s.figures());
            if (v > 0 && Double.isFinite(v)) {
                logs.computeIfAbsent(s.repeat(), k -> new ArrayList<>()).add(Math.log(v));
            }
        }
        logs.forEach((fork, l) -> out.addArray().add(fork)
                .add(Math.exp(l.stream().mapToDouble(Double::doubleValue).average().orElseThrow())));
    }

    /** capacity.csv's searches, one object per capacity: the median over the passes, its range, each search. */
    static ArrayNode capacityJson(List<CapacityCsv.Summary> capacities) {
        ArrayNode array = EnvironmentFile.JSON.createArrayNode();
        for (CapacityCsv.Summary c : capacities) {
            ObjectNode n = array.addObject();
            CapacityRecord first = c.first();
            n.put("variant", first.variant());
            n.put("scenario", first.scenario());
            n.put("conditions", first.conditions().label());
            n.put("sla", first.sla());
            n.put("capacity_rps", c.capacity().median());
            n.put("min", c.capacity().min());
            n.put("max", c.capacity().max());
            n.put("searches", c.searches().size());
            // With a price: the cost of a million requests at the capacity, the median over the passes.
            double cost = MedianInterval.median(c.searches().stream().mapToDouble(CapacityRecord::costPerMillion).toArray());
            if (!Double.isNaN(cost)) {
                n.put("cost_per_million", cost);
            }
            ArrayNode searches = n.putArray("passes");
            for (CapacityRecord r : c.searches()) {
                ObjectNode s = searches.addObject();
                s.put("repeat", r.repeat());
                s.put("capacity_rps", r.capacityRps());
                s.put("probe_log", r.probeLog());
                s.put("reason", r.reason());
            }
        }
        return array;
    }

    /**
     * Each step's flight recording summary (jfr.csv, the median of its samples) under {@code jfr} in
     * its row, by jfr.csv's columns: the page shows it beside the step's CPU per request.
     */
    static void attachRecordings(ObjectNode data, List<ResultRow> rows, List<JfrRecord> medians) {
        Map<ResultRow.StepKey, JfrRecord> byStep = new HashMap<>();
        medians.forEach(m -> byStep.put(m.key(), m));
        ArrayNode json = (ArrayNode) data.get("rows");
        for (int i = 0; i < rows.size() && i < json.size(); i++) {
            JfrRecord recorded = byStep.get(rows.get(i).key());
            if (recorded != null) {
                ((ObjectNode) json.get(i)).set("jfr", JfrCsv.TABLE.json(recorded));
            }
        }
    }

    /** counters.csv records as JSON objects by column; a figure perf could not count is null. */
    public static ArrayNode countersJson(List<CounterRecord> records) {
        ArrayNode array = EnvironmentFile.JSON.createArrayNode();
        records.forEach(r -> array.add(CountersCsv.TABLE.json(r)));
        return array;
    }

    /**
     * The {@code rules} object of a page's data: the thresholds the page draws, as this code decides
     * them, so that the script never types one again. Every page gets the "not quiet" limit.
     */
    public static ObjectNode rules(JsonNode data) {
        ObjectNode page = (ObjectNode) data;
        return page.has("rules") ? (ObjectNode) page.get("rules") : page.putObject("rules");
    }

    /**
     * A page: the shared CSS and renderer, the data, and {@code mode} ("report" or "compare") to draw.
     * A report carries the per-operation and through-time views too ({@code timeline.js}, loaded
     * first so that report.js finds it when it draws).
     */
    public static String page(String title, String mode, JsonNode data) throws IOException {
        boolean report = mode.equals("report");
        rules(data).put("not_quiet_pct", SampleRecord.NOT_QUIET_PCT);
        ((ObjectNode) data).set("figures", figures());
        // Compact: the through-time data is columns of numbers, and indenting them would grow the page by a third.
        String json = EnvironmentFile.JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(data)
                .replace("</", "<\\/").replace("<!--", "<\\!--");
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + escape(title) + "</title>\n<style>\n" + resource("report.css") + (report ? resource("timeline.css") : "") + "</style>\n</head>\n"
                + "<body data-render=\"pending\" data-mode=\"" + mode + "\">\n"
                + "<header><h1>" + escape(title) + "</h1>"
                + "<p id=\"render-status\">This report draws its charts with inline JavaScript; if you read this, scripts are disabled.</p>"
                + "<pre id=\"render-errors\" hidden></pre></header>\n<main id=\"main\"></main>\n"
                + "<script type=\"application/json\" id=\"data\">" + json + "</script>\n"
                + ("compare".equals(mode) ? "<script>\n" + resource("compare-ops.js") + "</script>\n" : "")
                + (report ? "<script>\n" + resource("timeline.js") + "</script>\n" : "")
                + "<script>\n" + resource("report.js") + "</script>\n</body>\n</html>\n";
    }

    /**
     * Every declared figure as the pages read it ({@code data.figures}, in declaration order): its key,
     * label, unit, digits, direction, smallest change called, whether {@code slower} gates it, its
     * source and levels. The page's script types no figure's name, unit or digits.
     */
    static ArrayNode figures() {
        ArrayNode all = EnvironmentFile.JSON.createArrayNode();
        for (Figure f : Figure.values()) {
            ObjectNode n = all.addObject();
            n.put("key", f.key());
            n.put("label", f.label());
            n.put("unit", f.unit());
            n.put("digits", f.digits().digits());
            n.put("significant", f.digits().significant());
            n.put("better", f.better().words());
            n.put("higher_is_better", f.higherIsBetter());
            if (Double.isFinite(f.minEffect())) {
                n.put("min_effect", f.minEffect());
            }
            n.put("gated_by_slower", f.gatedBySlower());
            n.put("better_word", f.verdictWords().get(0));
            n.put("worse_word", f.verdictWords().get(1));
            n.put("source", f.source().name().toLowerCase(Locale.ROOT));
            ArrayNode levels = n.putArray("levels");
            f.levels().forEach(l -> levels.add(l.name().toLowerCase(Locale.ROOT)));
        }
        return all;
    }

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ReportWriter.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
