package org.testbed.runner.suite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The robustness suites write {@code variant<TAB>figure<TAB>value} lines; shown as one table,
 * variants down and figures across, in the order they first appear. A figure a variant lacks shows
 * as "-"; a figure written twice for a variant shows its last value.
 */
public final class RobustnessTable {
    private static final String MISSING = "-";

    private RobustnessTable() {
    }

    /** The table's lines, each indented by two spaces: names left-aligned, figures right-aligned. */
    public static List<String> render(List<String> tsvLines) {
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        Map<String, Integer> widths = new LinkedHashMap<>(); // figure -> column width, in first-seen order
        for (String line : tsvLines) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            String variant = fields[0];
            String figure = fields.length > 1 ? fields[1] : "";
            String value = fields.length > 2 ? fields[2] : "";
            rows.computeIfAbsent(variant, v -> new HashMap<>()).put(figure, value);
            widths.merge(figure, Math.max(figure.length(), value.length()), Math::max);
        }
        int nameWidth = rows.keySet().stream().mapToInt(String::length).reduce("variant".length(), Math::max);
        List<String> table = new ArrayList<>();
        StringBuilder header = new StringBuilder("  ").append(pad("variant", nameWidth, true));
        widths.forEach((figure, width) -> header.append("  ").append(pad(figure, width, false)));
        table.add(header.toString());
        rows.forEach((variant, cells) -> {
            StringBuilder line = new StringBuilder("  ").append(pad(variant, nameWidth, true));
            widths.forEach((figure, width) -> line.append("  ").append(pad(cells.getOrDefault(figure, MISSING), width, false)));
            table.add(line.toString());
        });
        return table;
    }

    private static String pad(String text, int width, boolean left) {
        String spaces = " ".repeat(Math.max(0, width - text.length()));
        return left ? text + spaces : spaces + text;
    }
}
