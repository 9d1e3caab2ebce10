package org.testbed.runfolder.summary;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.RatioInterval;
import org.testbed.runfolder.stats.Verdict;

/**
 * The answer a run gives, before its evidence: for each scenario and level the variants ranked
 * ({@link Ranking}), and what the figures say beyond the ranking ({@link FindingRules}). The report
 * opens with it, {@code summary.md} holds it for a CI job's summary or a pull request, and the
 * console's closing lines say it.
 */
public record RunSummary(String runId, List<Ranking> rankings, List<Finding> findings) {
    /** The Markdown file in every run folder. */
    public static final String FILE = "summary.md";

    /** The summary of the run folder {@code dir}. */
    public static RunSummary of(Path dir) throws IOException {
        List<ResultRow> rows = ResultsCsv.read(dir.resolve(ResultsCsv.FILE));
        Map<ResultRow.StepKey, StepRecord> steps = new LinkedHashMap<>();
        StepsCsv.TABLE.read(dir.resolve(StepsCsv.FILE)).forEach(s -> steps.put(s.key(), s));
        Map<ResultRow.StepKey, List<SampleRecord>> samples = SamplesCsv.keptByStep(SamplesCsv.TABLE.read(dir.resolve(SamplesCsv.FILE)));
        List<CapacityCsv.Summary> capacities = CapacityCsv.summaries(CapacityCsv.TABLE.read(dir.resolve(CapacityCsv.FILE)));
        String runId = rows.isEmpty() ? dir.getFileName().toString() : rows.get(0).origin().runId();
        return new RunSummary(runId, Ranking.of(rows, steps, samples), FindingRules.of(rows, steps, samples, capacities));
    }

    /** Writes {@code summary.md} into {@code dir}; returns its path. */
    public Path write(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        Files.writeString(file, markdown(), StandardCharsets.UTF_8);
        return file;
    }

    /** What a ranking of steps measured once can and cannot say. */
    static final String UNTOLD = "measured once, without a noise estimate: only differences under "
            + Math.round(Verdict.MIN_EFFECT * 100) + " %, the smallest change compare calls, share a rank";

    /** GitHub-flavoured Markdown: a table per ranking, then the findings. */
    public String markdown() {
        StringBuilder md = new StringBuilder("# testbed run " + runId + "\n\n");
        boolean priced = rankings.stream().flatMap(r -> r.places().stream()).anyMatch(p -> !Double.isNaN(p.costPerMillion()));
        for (Ranking r : rankings) {
            md.append("## ").append(r.scenario()).append(' ').append(r.level())
                    .append(r.conditions().equals("plain") ? "" : " (" + r.conditions() + ")").append("\n\n");
            md.append("| rank | variant | req/s | interval | to the one above | requests per CPU-second | of the best | p99 ms |")
                    .append(priced ? " cost per million |" : "").append('\n');
            md.append("| ---: | --- | ---: | --- | --- | ---: | ---: | ---: |").append(priced ? " ---: |" : "").append('\n');
            for (Ranking.Place p : r.places()) {
                md.append("| ").append(p.rank()).append(" | ").append(p.variant()).append(p.saturated() ? " (load side saturated)" : "")
                        .append(" | ").append(FindingRules.whole(p.rps())).append(" | ").append(interval(p))
                        .append(" | ").append(toAbove(p, true))
                        .append(" | ").append(Double.isNaN(p.requestsPerCpuSecond()) ? "–" : FindingRules.whole(p.requestsPerCpuSecond()))
                        .append(" | ").append(Double.isNaN(p.efficiencyOfBest()) ? "–" : String.format(Locale.ROOT, "%.2f", p.efficiencyOfBest()))
                        .append(" | ").append(String.format(Locale.ROOT, "%.3f", p.p99Ms())).append(" |")
                        .append(priced ? " " + (Double.isNaN(p.costPerMillion()) ? "–" : String.format(Locale.ROOT, "%.6g", p.costPerMillion())) + " |" : "")
                        .append('\n');
            }
            md.append('\n');
            if (!r.told()) {
                md.append(UNTOLD).append("\n\n");
            }
        }
        md.append("Variants that share a rank differ by less than the run's compare rule calls a change.\n\n");
        if (!findings.isEmpty()) {
            md.append("## Findings\n\n");
            for (Finding f : findings) {
                md.append("- ").append(f.text()).append(" _(").append(f.why()).append(")_\n");
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** The console's closing lines: each ranking on a line, then the findings. */
    public String console() {
        StringBuilder out = new StringBuilder("the answer (variants ranked by throughput; a shared rank is a difference within noise):\n");
        for (Ranking r : rankings) {
            out.append("  ").append(r.scenario()).append(' ').append(r.level())
                    .append(r.conditions().equals("plain") ? "" : " " + r.conditions()).append(": ");
            out.append(String.join(", ", r.places().stream().map(p -> String.format(Locale.ROOT, "%d. %s %s req/s%s%s (%s req per CPU-s)",
                    p.rank(), p.variant(), FindingRules.whole(p.rps()), Double.isNaN(p.rpsHalfWidthPct()) ? ""
                            : String.format(Locale.ROOT, " ±%.0f%%", p.rpsHalfWidthPct()), toAbove(p, false),
                    Double.isNaN(p.requestsPerCpuSecond()) ? "?" : FindingRules.whole(p.requestsPerCpuSecond()))).toList()));
            out.append(r.told() ? "" : " (" + UNTOLD + ")").append('\n');
        }
        for (Finding f : findings) {
            out.append("  * ").append(f.text()).append('\n');
        }
        return out.toString();
    }

    /** The summary as the report's data carries it. */
    public ObjectNode json() {
        ObjectNode n = EnvironmentFile.JSON.createObjectNode();
        ArrayNode rs = n.putArray("rankings");
        for (Ranking r : rankings) {
            ObjectNode o = rs.addObject();
            o.put("scenario", r.scenario());
            o.put("level", r.level());
            o.put("conditions", r.conditions());
            o.put("told", r.told());
            if (!r.told()) {
                o.put("note", UNTOLD);
            }
            ArrayNode places = o.putArray("places");
            for (Ranking.Place p : r.places()) {
                ObjectNode q = places.addObject();
                q.put("rank", p.rank());
                q.put("variant", p.variant());
                q.put("mode", p.mode());
                q.put("rps", p.rps());
                q.put("rps_low", p.rpsLow());
                q.put("rps_high", p.rpsHigh());
                q.put("rps_half_width_pct", p.rpsHalfWidthPct());
                q.put("requests_per_cpu_second", p.requestsPerCpuSecond());
                q.put("efficiency_of_best", p.efficiencyOfBest());
                q.put("p99_ms", p.p99Ms());
                q.put("cost_per_million", p.costPerMillion());
                q.put("saturated", p.saturated());
                if (p.toAbove() != null && !Double.isNaN(p.toAbove().ratio())) {
                    q.put("to_above", p.toAbove().ratio());
                    q.put("to_above_low", p.toAbove().ciLow());
                    q.put("to_above_high", p.toAbove().ciHigh());
                    q.put("to_above_paired", p.pairedToAbove());
                }
            }
        }
        ArrayNode fs = n.putArray("findings");
        for (Finding f : findings) {
            ObjectNode o = fs.addObject();
            o.put("rule", f.rule());
            o.put("text", f.text());
            o.put("why", f.why());
            o.put("evidence", f.evidence());
        }
        return n;
    }

    /**
     * {@code  x0.76 [0.71, 0.82] paired}: its throughput over the one ranked above it, with that ratio's
     * interval and how it was taken; nothing for the first.
     */
    static String toAbove(Ranking.Place p, boolean table) {
        RatioInterval r = p.toAbove();
        if (r == null || Double.isNaN(r.ratio())) {
            return table ? "–" : "";
        }
        String interval = Double.isNaN(r.ciLow()) ? "" : String.format(Locale.ROOT, " [%.2f, %.2f]", r.ciLow(), r.ciHigh());
        return String.format(Locale.ROOT, "%sx%.2f%s%s", table ? "" : " ", r.ratio(), interval,
                p.pairedToAbove() ? " paired" : "");
    }

    private static String interval(Ranking.Place p) {
        if (Double.isNaN(p.rpsLow())) {
            return "–";
        }
        return "[" + FindingRules.whole(p.rpsLow()) + ", " + FindingRules.whole(p.rpsHigh()) + "] ±"
                + String.format(Locale.ROOT, "%.1f %%", p.rpsHalfWidthPct());
    }
}
