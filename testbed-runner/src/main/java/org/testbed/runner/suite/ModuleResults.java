package org.testbed.runner.suite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The closing table of {@code ./testbed test}: each module of the build with what Maven made of it
 * (its reactor summary's {@code SUCCESS}, {@code FAILURE} or {@code SKIPPED}) and its tests as their
 * reports count them ({@link TestReports}); under it, the modules Maven skipped because a module they
 * need failed ({@code --fail-at-end} builds every module it can and skips only those).
 */
public final class ModuleResults {
    /** A line of Maven's reactor summary: {@code [INFO] testbed-driver ......... FAILURE [ 12.3 s]}. */
    private static final Pattern SUMMARY_LINE = Pattern.compile(
            "^\\[INFO\\] (\\S+)(?: \\S+)? \\.+ (SUCCESS|FAILURE|SKIPPED)\\b");
    private static final Pattern SUMMARY_START = Pattern.compile("^\\[INFO\\] Reactor Summary");

    private final Map<String, String> outcomes = new LinkedHashMap<>();
    private final Map<String, TestReports> tests = new LinkedHashMap<>();
    private boolean inSummary;

    /**
     * A line of Maven's output; those of its reactor summary say each module's outcome. (A build of
     * one module prints no reactor summary: its module's outcome is then unknown, its reports say.)
     */
    public void mavenLine(String line) {
        if (SUMMARY_START.matcher(line).find()) {
            inSummary = true;
            outcomes.clear();
            return;
        }
        if (!inSummary) {
            return;
        }
        Matcher m = SUMMARY_LINE.matcher(line);
        if (m.find()) {
            outcomes.put(m.group(1), m.group(2));
        }
    }

    /** What {@code module}'s tests did in this build. */
    public void tests(String module, TestReports reports) {
        tests.put(module, reports);
    }

    /** What the reactor summary said of {@code module}: SUCCESS, FAILURE, SKIPPED, or empty when it did not say. */
    public String outcome(String module) {
        return outcomes.getOrDefault(module, "");
    }

    /** The modules Maven built or skipped, in its order; those with reports only when it printed no summary. */
    public List<String> modules() {
        List<String> all = new ArrayList<>(outcomes.keySet());
        tests.keySet().stream().filter(m -> !all.contains(m) && tests.get(m).reports() > 0).forEach(all::add);
        return all;
    }

    /** The modules skipped because a module they need failed. */
    public List<String> skipped() {
        return outcomes.entrySet().stream().filter(e -> e.getValue().equals("SKIPPED")).map(Map.Entry::getKey).toList();
    }

    /** Whether a module failed, or a test did (a failure Maven was told to ignore too). */
    public boolean failed() {
        return outcomes.containsValue("FAILURE") || tests.values().stream().anyMatch(TestReports::failed);
    }

    /** The table's lines, indented by two spaces, then the skipped modules named. */
    public List<String> render() {
        List<String> modules = modules();
        int width = modules.stream().mapToInt(String::length).reduce("module".length(), Math::max);
        String format = "  %-" + width + "s  %-7s  %6s  %18s  %7s  %9s";
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, format, "module", "result", "tests", "failures (+errors)", "skipped", "time"));
        long[] total = new long[4];
        double seconds = 0;
        for (String module : modules) {
            String outcome = outcome(module);
            TestReports t = tests.getOrDefault(module, TestReports.NONE);
            if (outcome.equals("SKIPPED") || t.reports() == 0) {
                lines.add(String.format(Locale.ROOT, format, module, outcome.isEmpty() ? "?" : outcome, "-", "-", "-", "-"));
                continue;
            }
            lines.add(String.format(Locale.ROOT, format, module, outcome.isEmpty() ? "?" : outcome, t.tests(),
                    failures(t.failures(), t.errors()), t.skipped(), String.format(Locale.ROOT, "%.1f s", t.seconds())));
            total[0] += t.tests();
            total[1] += t.failures();
            total[2] += t.errors();
            total[3] += t.skipped();
            seconds += t.seconds();
        }
        lines.add(String.format(Locale.ROOT, format, "all", failed() ? "FAILURE" : "SUCCESS", total[0],
                failures(total[1], total[2]), total[3], String.format(Locale.ROOT, "%.1f s", seconds)));
        List<String> skipped = skipped();
        if (!skipped.isEmpty()) {
            lines.add("  skipped because a module they need failed: " + String.join(", ", skipped));
        }
        return lines;
    }

    private static String failures(long failures, long errors) {
        return errors > 0 ? failures + " (+" + errors + ")" : Long.toString(failures);
    }
}
