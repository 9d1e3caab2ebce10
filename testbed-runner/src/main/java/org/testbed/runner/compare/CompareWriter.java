package org.testbed.runner.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.testbed.runner.csv.ResultRow;
import org.testbed.runner.csv.ResultsCsv;
import org.testbed.runner.env.Environment;
import org.testbed.runner.report.ReportWriter;

/** {@code ./testbed compare A B}: a console table and {@code compare.html}. */
public final class CompareWriter {
    private CompareWriter() {
    }

    public static Comparison load(Path a, Path b) throws IOException {
        return Comparison.of(ResultsCsv.read(csv(a)), ResultsCsv.read(csv(b)));
    }

    /** The results.csv of a run folder (or the file itself). */
    public static Path csv(Path dirOrFile) {
        return Files.isDirectory(dirOrFile) ? dirOrFile.resolve(ResultsCsv.FILE) : dirOrFile;
    }

    private static Path dir(Path dirOrFile) {
        return Files.isDirectory(dirOrFile) ? dirOrFile : dirOrFile.toAbsolutePath().getParent();
    }

    public static String table(Comparison c) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-22s %-9s %-8s %10s %10s %7s %9s %9s %7s %9s %9s %7s%n", "variant", "scenario",
                "level", "rps A", "rps B", "B/A", "p99 A", "p99 B", "B/A", "cpu A", "cpu B", "B/A"));
        for (Comparison.Match m : c.matched()) {
            out.append(String.format(Locale.ROOT, "%-22s %-9s %-8s %10.0f %10.0f %7s %9.3f %9.3f %7s %9.4f %9.4f %7s%s%n",
                    m.key().variant(), m.key().scenario(), m.key().level(), m.a().rps(), m.b().rps(), r(m.rpsRatio()),
                    m.a().latP99Ms(), m.b().latP99Ms(), r(m.p99Ratio()), m.a().cpuMsPerReq(), m.b().cpuMsPerReq(),
                    r(m.cpuRatio()), m.flags().isEmpty() ? "" : "  (" + String.join("; ", m.flags()) + ")"));
        }
        for (ResultRow.StepKey k : c.onlyA()) {
            out.append("only in A: ").append(k.variant()).append(' ').append(k.scenario()).append(' ').append(k.level()).append('\n');
        }
        for (ResultRow.StepKey k : c.onlyB()) {
            out.append("only in B: ").append(k.variant()).append(' ').append(k.scenario()).append(' ').append(k.level()).append('\n');
        }
        return out.toString();
    }

    private static String r(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.3f", ratio);
    }

    /** Writes the HTML page to {@code out}. */
    public static Path html(Path a, Path b, Comparison c, Path out) throws IOException {
        ObjectNode data = Environment.JSON.createObjectNode();
        data.set("a", side(a));
        data.set("b", side(b));
        ArrayNode matched = data.putArray("matched");
        for (Comparison.Match m : c.matched()) {
            ObjectNode n = matched.addObject();
            n.put("variant", m.key().variant());
            n.put("scenario", m.key().scenario());
            n.put("level", m.key().level());
            n.set("a", row(m.a()));
            n.set("b", row(m.b()));
            ObjectNode ratios = n.putObject("ratios");
            put(ratios, "rps", m.rpsRatio());
            put(ratios, "p99", m.p99Ratio());
            put(ratios, "cpu", m.cpuRatio());
            ArrayNode flags = n.putArray("flags");
            m.flags().forEach(flags::add);
        }
        data.set("onlyA", keys(c.onlyA()));
        data.set("onlyB", keys(c.onlyB()));
        String title = "testbed compare: " + dir(a).getFileName() + " vs " + dir(b).getFileName();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, ReportWriter.page(title, "compare", data), StandardCharsets.UTF_8);
        return out;
    }

    private static ObjectNode side(Path p) throws IOException {
        ObjectNode n = Environment.JSON.createObjectNode();
        Path dir = dir(p);
        n.put("dir", dir.toString());
        n.set("env", Environment.read(dir.resolve(Environment.FILE)));
        return n;
    }

    private static JsonNode row(ResultRow row) throws IOException {
        ArrayNode one = ReportWriter.rowsJson(List.of(row), List.of());
        return one.get(0);
    }

    private static ArrayNode keys(List<ResultRow.StepKey> keys) {
        ArrayNode a = Environment.JSON.createArrayNode();
        for (ResultRow.StepKey k : keys) {
            ObjectNode n = a.addObject();
            n.put("variant", k.variant());
            n.put("scenario", k.scenario());
            n.put("level", k.level());
        }
        return a;
    }

    private static void put(ObjectNode n, String name, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            n.putNull(name);
        } else {
            n.put(name, v);
        }
    }
}
