package org.testbed.gatling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The machine-readable summary of one run: {@code summary.json} and {@code summary.csv}, written
 * beside Gatling's HTML report. The CSV uses the runner's column names (docs/DESIGN.md, "Results") for
 * the figures they share, one row for the whole run ({@code window=all}) and one per window.
 */
record Summary(String simulation, String runId, String injector, String target, String workload,
               String model, String shape, boolean smoke, String startedAt, long lanes,
               Map<String, String> knobs, RunStats.Row total, List<RunStats.Row> windows, Sla sla) {

    static final List<String> CSV_COLUMNS = List.of("run_id", "simulation", "driver", "scenario", "window",
            "concurrency", "target_rps", "duration_s", "requests", "ok", "errors", "error_pct", "rps",
            "lat_p50_ms", "lat_p90_ms", "lat_p99_ms", "lat_p999_ms", "lat_max_ms", "sla_ok");

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

    List<Path> writeTo(Path directory, String baseName) {
        try {
            Files.createDirectories(directory);
            Path json = directory.resolve(baseName + ".json");
            Path csv = directory.resolve(baseName + ".csv");
            Files.writeString(json, json(), StandardCharsets.UTF_8);
            Files.writeString(csv, csv(), StandardCharsets.UTF_8);
            return List.of(json, csv);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the summary into " + directory, e);
        }
    }

    String json() {
        StringBuilder j = new StringBuilder(2048);
        j.append("{\n");
        field(j, "simulation", simulation).append(",\n");
        field(j, "driver", "gatling").append(",\n");
        field(j, "run_id", runId).append(",\n");
        field(j, "injector", injector).append(",\n");
        field(j, "target", target).append(",\n");
        field(j, "scenario", workload).append(",\n");
        field(j, "model", model).append(",\n");
        field(j, "shape", shape).append(",\n");
        j.append("  \"smoke\": ").append(smoke).append(",\n");
        field(j, "started_at", startedAt).append(",\n");
        j.append("  \"lanes\": ").append(lanes).append(",\n");
        j.append("  \"knobs\": {");
        String sep = "";
        for (Map.Entry<String, String> knob : knobs.entrySet()) {
            j.append(sep).append("\n    ").append(quote(knob.getKey())).append(": ").append(quote(knob.getValue()));
            sep = ",";
        }
        j.append("\n  },\n");
        j.append("  \"total\": ").append(rowJson(total)).append(",\n");
        j.append("  \"windows\": [");
        sep = "";
        for (RunStats.Row row : windows) {
            j.append(sep).append("\n    ").append(rowJson(row));
            sep = ",";
        }
        j.append(windows.isEmpty() ? "],\n" : "\n  ],\n");
        if (sla == null) {
            j.append("  \"sla\": null\n");
        } else {
            j.append("  \"sla\": {\"p99_bound_ms\": ").append(num(sla.p99BoundMs()))
                    .append(", \"max_failed_pct\": ").append(num(sla.maxFailedPct()))
                    .append(", \"capacity_rps\": ").append(num(sla.capacityRps()))
                    .append(", \"first_breach\": ").append(sla.firstBreach() == null ? "null" : quote(sla.firstBreach()))
                    .append("}\n");
        }
        return j.append("}\n").toString();
    }

    String csv() {
        StringBuilder c = new StringBuilder(String.join(",", CSV_COLUMNS)).append('\n');
        List<RunStats.Row> rows = new ArrayList<>();
        rows.add(total);
        rows.addAll(windows);
        boolean open = model.equals("open");
        for (RunStats.Row r : rows) {
            Boolean slaOk = sla == null ? null : sla.verdicts().get(r.window());
            List<String> cells = List.of(runId, simulation, "gatling", workload, r.window(),
                    open || Double.isNaN(r.load()) ? "" : num(r.load()),
                    open && !Double.isNaN(r.load()) ? num(r.load()) : "",
                    num(r.seconds()), Long.toString(r.requests()), Long.toString(r.ok()), Long.toString(r.ko()),
                    num(r.errorPct()), num(r.rps()), num(r.p50()), num(r.p90()), num(r.p99()), num(r.p999()),
                    num(r.max()), slaOk == null ? "" : slaOk.toString());
            c.append(String.join(",", cells.stream().map(Summary::csvCell).toList())).append('\n');
        }
        return c.toString();
    }

    private static String rowJson(RunStats.Row r) {
        return "{\"window\": " + quote(r.window())
                + ", \"load\": " + (Double.isNaN(r.load()) ? "null" : num(r.load()))
                + ", \"requests\": " + r.requests() + ", \"ok\": " + r.ok() + ", \"ko\": " + r.ko()
                + ", \"duration_s\": " + num(r.seconds()) + ", \"rps\": " + num(r.rps())
                + ", \"lat_p50_ms\": " + num(r.p50()) + ", \"lat_p90_ms\": " + num(r.p90())
                + ", \"lat_p99_ms\": " + num(r.p99()) + ", \"lat_p999_ms\": " + num(r.p999())
                + ", \"lat_max_ms\": " + num(r.max()) + "}";
    }

    private static StringBuilder field(StringBuilder j, String name, String value) {
        return j.append("  ").append(quote(name)).append(": ").append(value == null ? "null" : quote(value));
    }

    static String num(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "null";
        }
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format(Locale.ROOT, "%.3f", d);
    }

    static String quote(String s) {
        StringBuilder q = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\r' -> q.append("\\r");
                case '\t' -> q.append("\\t");
                default -> {
                    if (c < 0x20) {
                        q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }

    private static String csvCell(String s) {
        return s.equals("null") ? "" : s.indexOf(',') >= 0 || s.indexOf('"') >= 0
                ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }
}
