package org.testbed.runfolder.flame;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.report.ReportWriter;

/**
 * The frames whose self time changed most between two profiles, which the converter's
 * differential graph does not list: a frame's self time is the samples whose innermost frame it is,
 * merged by name wherever it is called from, as a share of each profile's own total (so profiles
 * of different lengths or rates compare), largest change first.
 */
public final class SelfTimeChanges {
    private SelfTimeChanges() {
    }

    /** A frame's self share in A and in B. */
    public record Change(String frame, double shareA, double shareB) {
        public double delta() {
            return shareB - shareA;
        }
    }

    /** The {@code limit} frames whose self share changed most from {@code a} to {@code b}. */
    public static List<Change> top(CollapsedStacks a, CollapsedStacks b, int limit) {
        Map<String, long[]> self = new LinkedHashMap<>();
        a.samples().forEach((stack, n) -> self.computeIfAbsent(CollapsedStacks.leaf(stack), k -> new long[2])[0] += n);
        b.samples().forEach((stack, n) -> self.computeIfAbsent(CollapsedStacks.leaf(stack), k -> new long[2])[1] += n);
        long totalA = a.total();
        long totalB = b.total();
        List<Change> changes = new ArrayList<>();
        self.forEach((frame, ab) -> changes.add(new Change(frame, share(ab[0], totalA), share(ab[1], totalB))));
        changes.sort(Comparator.comparingDouble((Change c) -> -Math.abs(c.delta())));
        return changes.subList(0, Math.min(limit, changes.size()));
    }

    /** A page with the table, one row per frame. */
    public static Path writePage(Path file, String title, String note, List<Change> changes) throws IOException {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(ReportWriter.escape(title)).append("</title>\n<style>\n")
                .append("body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; }\n")
                .append("table { border-collapse: collapse; } th, td { padding: 2px 8px; border-bottom: 1px solid #d0d7de; text-align: right; }\n")
                .append("td.l { text-align: left; font-family: monospace; } td.up { color: #b00020; } td.down { color: #0b5cad; }\n")
                .append("</style>\n</head>\n<body>\n<h1>").append(ReportWriter.escape(title)).append("</h1>\n<p>")
                .append(ReportWriter.escape(note)).append("</p>\n<table>\n")
                .append("<tr><th>frame</th><th>self share in A</th><th>self share in B</th><th>change</th></tr>\n");
        for (Change c : changes) {
            html.append("<tr><td class=\"l\">").append(ReportWriter.escape(c.frame())).append("</td><td>")
                    .append(percent(c.shareA())).append("</td><td>").append(percent(c.shareB()))
                    .append("</td><td class=\"").append(c.delta() >= 0 ? "up" : "down").append("\">")
                    .append(c.delta() >= 0 ? "+" : "").append(percent(c.delta())).append("</td></tr>\n");
        }
        html.append("</table>\n</body>\n</html>\n");
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.writeString(file, html, StandardCharsets.UTF_8);
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.2f %%", 100 * share);
    }

    private static double share(long n, long total) {
        return total == 0 ? 0 : (double) n / total;
    }
}
