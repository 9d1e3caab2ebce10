package org.testbed.runfolder.compare;

import org.testbed.runfolder.EnvironmentFile;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.csv.Column;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.counters.CounterComparison;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.environment.ServerPlatform;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.flame.FlameDiffs;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.report.ReportWriter;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Verdict;

/**
 * {@code ./testbed compare A B}: the console text (changes beyond noise first, then every step),
 * {@code compare.csv} and the HTML page.
 */
public final class CompareWriter {
    /** One line of compare.csv: one figure of one matched step. */
    record ChangeLine(Comparison.Match match, Comparison.Change change) {
        /** A figure of this line as compare.csv writes it, in its figure's digits. */
        String figure(double value) {
            return change.figure().format(value);
        }
    }

    /** compare.csv: one row per matched step and metric; the page's changes carry the same keys. */
    static final CsvTable<ChangeLine> TABLE = new CsvTable<>("compare.csv", List.of(
            Column.text("variant", l -> l.match().key().variant()),
            Column.text("scenario", l -> l.match().key().scenario()),
            Column.text("level", l -> l.match().key().describe()),
            Column.text("metric", l -> l.change().figure().key()),
            Column.number("a", l -> l.figure(l.change().a())),
            Column.number("b", l -> l.figure(l.change().b())),
            Column.decimal("ratio", 4, l -> l.change().ratio()),
            Column.decimal("ci_low", 4, l -> l.change().ciLow()),
            Column.decimal("ci_high", 4, l -> l.change().ciHigh()),
            Column.text("verdict", l -> Comparison.verdictName(l.change().figure(), l.change().verdict())),
            Column.decimal("confidence", 4, l -> l.change().confidence()),
            Column.count("n_a", l -> l.change().nA()),
            Column.count("n_b", l -> l.change().nB()),
            Column.decimal("noise_floor", 4, l -> l.change().noiseFloor()),
            Column.text("flags", l -> String.join("; ", l.match().flags())),
            Column.decimal("smallest_change_pct", 1, l -> l.change().smallestChangePct())), 4, row -> {
                throw new UnsupportedOperationException("compare.csv is written, not read back");
            });

    /** compare.csv's columns. */
    public static final List<String> CSV_COLUMNS = TABLE.names();

    /** The name of the CSV written beside the compare page. */
    public static final String CSV_FILE = "compare.csv";

    private CompareWriter() {
    }

    /** The counters of the steps both runs measured with --counters, beside the CPU ratio of {@code c}. */
    public static CounterComparison counters(Path a, Path b, Comparison c) throws IOException {
        Map<ResultRow.StepKey, Double> cpu = new HashMap<>();
        for (Comparison.Match m : c.matched()) {
            cpu.put(m.key(), m.change(Figure.CPU).ratio());
        }
        return CounterComparison.load(dir(a), dir(b), cpu);
    }

    /** Compares two run folders (or their results.csv), with the samples of each when it has samples.csv. */
    public static Comparison load(Path a, Path b) throws IOException {
        return Comparison.of(ResultsCsv.read(csv(a)), samples(a), Pricing.read(dir(a)), recorded(a), ResultsCsv.read(csv(b)),
                samples(b), Pricing.read(dir(b)), recorded(b));
    }

    /**
     * The price of a condition: A's steps under {@code fromA} matched with B's under {@code fromB}
     * (A and B may be one run made with {@code --conditions plain,metrics}), each as if under
     * {@code fromA}, so that the ratio B/A is what the condition costs with the noise of both.
     */
    public static Comparison load(Path a, Conditions fromA, Path b, Conditions fromB) throws IOException {
        List<ResultRow> rowsA = ResultsCsv.read(csv(a));
        List<ResultRow> rowsB = ResultsCsv.read(csv(b));
        // One run's two sets of conditions were measured in the same passes and rounds: their windows pair.
        boolean oneRun = !fromA.equals(fromB) && !rowsA.isEmpty() && !rowsB.isEmpty()
                && rowsA.get(0).origin().runId().equals(rowsB.get(0).origin().runId());
        return Comparison.of(under(rowsA, fromA, fromA), under(samples(a), fromA, fromA), Pricing.read(dir(a)),
                recordedUnder(recorded(a), fromA, fromA), under(rowsB, fromB, fromA),
                under(samples(b), fromB, fromA), Pricing.read(dir(b)), recordedUnder(recorded(b), fromB, fromA), oneRun);
    }

    private static Map<ResultRow.StepKey, List<JfrRecord>> recordedUnder(Map<ResultRow.StepKey, List<JfrRecord>> recorded,
                                                                         Conditions only, Conditions as) {
        Map<ResultRow.StepKey, List<JfrRecord>> map = new LinkedHashMap<>();
        recorded.forEach((key, list) -> {
            if (key.conditions().equals(only)) {
                List<JfrRecord> relabelled = list.stream().map(x -> x.withConditions(as)).toList();
                map.put(relabelled.get(0).key(), relabelled);
            }
        });
        return map;
    }

    /** A run's flight recordings' summaries by step (a run without --jfr has none). */
    private static Map<ResultRow.StepKey, List<JfrRecord>> recorded(Path dirOrFile) throws IOException {
        return JfrCsv.byStep(JfrCsv.TABLE.read(dir(dirOrFile).resolve(JfrCsv.FILE)));
    }

    private static List<ResultRow> under(List<ResultRow> rows, Conditions only, Conditions as) {
        return rows.stream().filter(r -> r.conditions().equals(only)).map(r -> r.withConditions(as)).toList();
    }

    private static Map<ResultRow.StepKey, List<SampleRecord>> under(Map<ResultRow.StepKey, List<SampleRecord>> samples,
                                                                    Conditions only, Conditions as) {
        Map<ResultRow.StepKey, List<SampleRecord>> map = new LinkedHashMap<>();
        samples.forEach((key, list) -> {
            if (key.conditions().equals(only)) {
                List<SampleRecord> relabelled = list.stream().map(x -> x.withConditions(as)).toList();
                map.put(relabelled.get(0).key(), relabelled);
            }
        });
        return map;
    }

    /** The operations of {@code c}'s matched steps, from both run folders' operations.csv (a run without one has none). */
    public static OperationComparison operations(Path a, Path b, Comparison c) throws IOException {
        return OperationComparison.of(c, operations(a), operations(b));
    }

    /** The operations of a comparison of conditions ({@link #load(Path, Conditions, Path, Conditions)}), matched as its steps are. */
    public static OperationComparison operations(Path a, Conditions fromA, Path b, Conditions fromB, Comparison c)
            throws IOException {
        return OperationComparison.of(c, operationsUnder(operations(a), fromA, fromA), operationsUnder(operations(b), fromB, fromA));
    }

    private static List<OperationRecord> operationsUnder(List<OperationRecord> records, Conditions only, Conditions as) {
        return records.stream().filter(r -> r.key().conditions().equals(only)).map(r -> r.withConditions(as)).toList();
    }

    private static List<OperationRecord> operations(Path dirOrFile) throws IOException {
        return OperationsCsv.TABLE.read(dir(dirOrFile).resolve(OperationsCsv.FILE));
    }

    private static Map<ResultRow.StepKey, List<SampleRecord>> samples(Path dirOrFile) throws IOException {
        // A window the machine ran slow in is left out of its step's figure, and so of its comparison.
        return SamplesCsv.keptByStep(SamplesCsv.TABLE.read(dir(dirOrFile).resolve(SamplesCsv.FILE)));
    }

    /** The results.csv of a run folder (or the file itself). */
    public static Path csv(Path dirOrFile) {
        return Files.isDirectory(dirOrFile) ? dirOrFile.resolve(ResultsCsv.FILE) : dirOrFile;
    }

    /** The run folder of a run folder or of its results.csv. */
    public static Path dir(Path dirOrFile) {
        return Files.isDirectory(dirOrFile) ? dirOrFile : dirOrFile.toAbsolutePath().getParent();
    }

    /**
     * The console text: first what changed beyond noise, one line each (or that nothing did), then
     * every matched step with, per metric, A, B, the ratio B/A, its interval and confidence, the
     * samples on each side and the verdict.
     */
    public static String table(Comparison c) {
        StringBuilder out = new StringBuilder();
        List<Comparison.Finding> findings = c.findings();
        long unknown = c.withoutNoiseEstimate();
        String noEstimate = unknown == 0 ? "" : String.format(Locale.ROOT, "(%d of %d figures have no noise estimate:"
                + " a run measured the step once (use --forks 2 --iterations 2 or more))",
                unknown, c.figures());
        out.append(prices(c));
        if (findings.isEmpty()) {
            out.append("nothing changed beyond noise").append(noEstimate.isEmpty() ? "" : " " + noEstimate).append('\n');
            out.append(smallestChanges(c));
        } else {
            out.append("changed beyond noise (B/A, interval at the confidence shown):\n");
            for (Comparison.Finding f : findings) {
                out.append("  ").append(finding(f)).append('\n');
            }
            if (!noEstimate.isEmpty()) {
                out.append(noEstimate).append('\n');
            }
        }
        out.append('\n');
        out.append(String.format(Locale.ROOT, "%-22s %-9s %-8s %-14s %12s %12s %7s %-18s %5s %5s  %s%n", "variant", "scenario",
                "level", "metric", "A", "B", "B/A", "interval", "conf", "n A/B", "verdict"));
        for (Comparison.Match m : c.matched()) {
            for (Comparison.Change ch : m.changes()) {
                boolean first = ch.figure() == Figure.RPS;
                out.append(String.format(Locale.ROOT, "%-22s %-9s %-8s %-14s %12s %12s %7s %-18s %5s %5s  %s%s%n",
                        m.key().variant(), m.key().scenario(), m.key().describe(), ch.figure().key(),
                        figure(ch.figure(), ch.a()), figure(ch.figure(), ch.b()), r(ch.ratio()), interval(ch),
                        ch.confidence() > 0 ? String.format(Locale.ROOT, "%.0f%%", 100 * ch.confidence()) : "-",
                        ch.nA() + "/" + ch.nB(), Comparison.verdictName(ch.figure(), ch.verdict()) + couldNotTell(ch),
                        first && !m.flags().isEmpty() ? "  (" + String.join("; ", m.flags()) + ")" : ""));
            }
        }
        for (ResultRow.StepKey k : c.onlyA()) {
            out.append("only in A: ").append(k.variant()).append(' ').append(k.scenario()).append(' ').append(k.describe()).append('\n');
        }
        for (ResultRow.StepKey k : c.onlyB()) {
            out.append("only in B: ").append(k.variant()).append(' ').append(k.scenario()).append(' ').append(k.describe()).append('\n');
        }
        return out.toString();
    }

    /** The Markdown summary of a compare, beside its page. */
    public static final String SUMMARY_FILE = "compare-summary.md";

    /**
     * The compare's answer in GitHub-flavoured Markdown, for a CI job's summary or a pull request:
     * what changed beyond noise (a table), how many figures did not, and the smallest change the pair
     * could tell per figure.
     */
    public static String markdown(Comparison c, String a, String b) {
        StringBuilder md = new StringBuilder("# compare: B = " + b + " against A = " + a + "\n\n");
        List<Comparison.Finding> findings = c.findings();
        if (findings.isEmpty()) {
            md.append("**Nothing changed beyond noise** in ").append(c.figures()).append(" figures of ")
                    .append(c.matched().size()).append(" matched steps.\n\n");
        } else {
            md.append("## Changed beyond noise\n\n| step | figure | A | B | B/A | interval | verdict |\n")
                    .append("| --- | --- | ---: | ---: | ---: | --- | --- |\n");
            for (Comparison.Finding f : findings) {
                Comparison.Change ch = f.change();
                ResultRow.StepKey k = f.match().key();
                md.append("| ").append(k.variant()).append(' ').append(k.scenario()).append(' ').append(k.describe())
                        .append(" | ").append(ch.figure().key()).append(" | ").append(ch.figure().show(ch.a()))
                        .append(" | ").append(ch.figure().show(ch.b())).append(" | ").append(r(ch.ratio()))
                        .append(" | ").append(interval(ch)).append(" | ").append(Comparison.verdictName(ch.figure(), ch.verdict()))
                        .append(f.match().flags().isEmpty() ? "" : " (" + String.join("; ", f.match().flags()) + ")").append(" |\n");
            }
            md.append('\n').append(c.figures() - findings.size() - c.withoutNoiseEstimate())
                    .append(" other figures are within noise.\n\n");
        }
        String smallest = smallestChanges(c);
        if (!smallest.isEmpty()) {
            md.append("The smallest change this pair could tell: ").append(smallest.substring(smallest.indexOf(':') + 2).strip())
                    .append(".\n\n");
        }
        if (c.withoutNoiseEstimate() > 0) {
            md.append(c.withoutNoiseEstimate()).append(" figures have no noise estimate: a run measured the step once.\n\n");
        }
        return md.toString();
    }

    /** {@code  (could not tell a change under 7 %)} beside a "within noise" verdict; nothing beside others. */
    static String couldNotTell(Comparison.Change ch) {
        double pct = ch.smallestChangePct();
        return ch.verdict() == Verdict.WITHIN_NOISE && !Double.isNaN(pct)
                ? String.format(Locale.ROOT, " (could not tell a change under %.0f %%)", Math.ceil(pct)) : "";
    }

    /**
     * For a pair that called nothing a change, what it could have told, per figure: {@code this pair
     * could not tell a change under: rps 4-12 % (median 6 %), p99 ...}, so that "nothing changed"
     * reads with its power beside it.
     */
    static String smallestChanges(Comparison c) {
        Map<Figure, List<Double>> byFigure = new EnumMap<>(Figure.class);
        for (Comparison.Match m : c.matched()) {
            for (Comparison.Change ch : m.changes()) {
                if (!Double.isNaN(ch.smallestChangePct())) {
                    byFigure.computeIfAbsent(ch.figure(), k -> new ArrayList<>()).add(ch.smallestChangePct());
                }
            }
        }
        if (byFigure.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        byFigure.forEach((figure, pcts) -> {
            double[] v = pcts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            parts.add(String.format(Locale.ROOT, "%s %.0f-%.0f %% (median %.0f %%)", figure.key(), Math.ceil(v[0]),
                    Math.ceil(v[v.length - 1]), Math.ceil(MedianInterval.median(v))));
        });
        return "this pair could not tell a change under: " + String.join(", ", parts) + "\n";
    }

    /**
     * The prices the costs were compared at, one line; or, when only one run has a price, that no
     * cost is compared and how to price the other; nothing when neither has one.
     */
    static String prices(Comparison c) {
        if (c.priceA().isPresent() && c.priceB().isPresent()) {
            Pricing a = c.priceA().get();
            Pricing b = c.priceB().get();
            return String.format(Locale.ROOT, "cost per million requests = price per hour × server share / (req/s × 3600)"
                    + " × 1e6: A at %s, B at %s; cost B/A = %.3f (price × share) / the throughput ratio%n",
                    a.describe(), b.describe(), b.hourly() / a.hourly());
        }
        if (c.onlyOneSidePriced()) {
            String priced = c.priceA().isPresent() ? "A" : "B";
            String other = c.priceA().isPresent() ? "B" : "A";
            return "only " + priced + " has a price, so no cost is compared: price " + other
                    + " with ./testbed report " + other + "_DIR --price-per-hour PRICE (or --prices FILE)\n";
        }
        return "";
    }

    /**
     * One change beyond noise with the step's caveats, e.g. {@code vertx mix c=64 rps 0.730× [0.700, 0.760] slower
     * (throughput A 20000.0 req/s → B 14600.0 req/s; 95%, n 6/6; NOT QUIET in 6 of 12 samples)}.
     */
    static String finding(Comparison.Finding f) {
        Comparison.Change ch = f.change();
        ResultRow.StepKey k = f.match().key();
        List<String> flags = f.match().flags();
        return String.format(Locale.ROOT, "%s %s %s %s %.3f× %s %s (%s A %s → B %s; %.0f%%, n %d/%d%s)", k.variant(), k.scenario(),
                k.describe(), ch.figure().key(), ch.ratio(), interval(ch), Comparison.verdictName(ch.figure(), ch.verdict()),
                ch.figure().label(), ch.figure().show(ch.a()), ch.figure().show(ch.b()),
                100 * ch.confidence(), ch.nA(), ch.nB(), flags.isEmpty() ? "" : "; " + String.join("; ", flags));
    }

    private static String interval(Comparison.Change ch) {
        if (Double.isNaN(ch.ciLow()) || Double.isNaN(ch.ciHigh())) {
            return "-";
        }
        return String.format(Locale.ROOT, "[%.3f, %.3f]", ch.ciLow(), ch.ciHigh());
    }

    /** A figure in the console's table: its own digits, {@code -} when not known. */
    private static String figure(Figure figure, double v) {
        String s = figure.format(v);
        return s.isEmpty() ? "-" : s;
    }

    private static String r(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.3f", ratio);
    }

    /** Writes {@code file}: {@link #CSV_COLUMNS}, one row per matched step and metric; an undefined number is empty. */
    public static Path writeCsv(Comparison c, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        TABLE.write(file, lines(c.matched()));
        return file;
    }

    private static List<ChangeLine> lines(List<Comparison.Match> matched) {
        return matched.stream().flatMap(m -> m.changes().stream().map(ch -> new ChangeLine(m, ch))).toList();
    }

    /** Writes {@code file}: {@link OperationComparison#TABLE}'s columns, one row per compared step, operation and figure. */
    public static Path writeOperationsCsv(OperationComparison ops, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        OperationComparison.TABLE.write(file, ops.changes());
        return file;
    }

    /** Writes the HTML page to {@code out}, with the operations of both run folders as they are. */
    public static Path html(Path a, Path b, Comparison c, Path out) throws IOException {
        return html(a, b, c, operations(a, b, c), out);
    }

    /** Writes the HTML page to {@code out}. */
    public static Path html(Path a, Path b, Comparison c, OperationComparison ops, Path out) throws IOException {
        ObjectNode data = EnvironmentFile.JSON.createObjectNode();
        data.set("operations", operationsJson(ops));
        CounterComparison counters = counters(a, b, c);
        if (!counters.steps().isEmpty()) {
            ArrayNode steps = data.putArray("counters");
            for (CounterComparison.Step s : counters.steps()) {
                ObjectNode n = steps.addObject();
                n.put("variant", s.key().variant());
                n.put("scenario", s.key().scenario());
                n.put("level", s.key().level());
                put(n, "cpu", s.cpuRatio());
                ObjectNode ratios = n.putObject("ratios");
                s.ratios().forEach((column, ratio) -> put(ratios, column, ratio));
                n.set("a", ReportWriter.countersJson(List.of(s.a())).get(0));
                n.set("b", ReportWriter.countersJson(List.of(s.b())).get(0));
            }
        }
        CapacityComparison capacity = CapacityComparison.load(dir(a), dir(b));
        if (!capacity.entries().isEmpty()) {
            ArrayNode entries = data.putArray("capacity");
            for (CapacityComparison.Entry e : capacity.entries()) {
                ObjectNode n = entries.addObject();
                n.put("variant", e.a().first().variant());
                n.put("scenario", e.a().first().scenario());
                n.put("conditions", e.a().first().conditions().label());
                n.put("sla", e.a().first().sla());
                n.put("a", e.change().a());
                n.put("b", e.change().b());
                n.put("a_range", "[" + Column.decimal(e.a().capacity().min(), 0) + ", " + Column.decimal(e.a().capacity().max(), 0) + "]");
                n.put("b_range", "[" + Column.decimal(e.b().capacity().min(), 0) + ", " + Column.decimal(e.b().capacity().max(), 0) + "]");
                put(n, "ratio", e.change().ratio());
                put(n, "ci_low", e.change().ciLow());
                put(n, "ci_high", e.change().ciHigh());
                n.put("verdict", e.change().verdict().wireName());
            }
        }
        data.set("a", side(a));
        data.set("b", side(b));
        ArrayNode emulated = data.putArray("emulation_notes");
        platformNotes(a, b).forEach(emulated::add);
        c.priceA().ifPresent(p -> data.set("price_a", EnvironmentFile.JSON.valueToTree(p.section())));
        c.priceB().ifPresent(p -> data.set("price_b", EnvironmentFile.JSON.valueToTree(p.section())));
        String priceNote = prices(c).strip();
        if (!priceNote.isEmpty()) {
            data.put("price_note", priceNote);
        }
        Path diffs = out.toAbsolutePath().resolveSibling(out.getFileName().toString().replaceFirst("\\.html$", "") + "-flame");
        Map<ResultRow.StepKey, FlameDiffs.Pages> flameDiffs = FlameDiffs.write(dir(a), dir(b),
                c.matched().stream().map(Comparison.Match::key).toList(), diffs);
        ArrayNode matched = data.putArray("matched");
        for (Comparison.Match m : c.matched()) {
            ObjectNode n = matched.addObject();
            FlameDiffs.Pages flame = flameDiffs.get(m.key());
            if (flame != null) {
                Path here = out.toAbsolutePath().getParent();
                n.put("flame_diff", here.relativize(flame.graph()).toString());
                n.put("flame_frames", here.relativize(flame.frames()).toString());
            }
            n.put("variant", m.key().variant());
            n.put("scenario", m.key().scenario());
            n.put("level", m.key().describe());
            n.set("a", row(m.a()));
            n.set("b", row(m.b()));
            ObjectNode changes = n.putObject("changes");
            for (ChangeLine line : lines(List.of(m))) {
                changes.set(line.change().figure().key(), TABLE.json(line));
            }
            ArrayNode flags = n.putArray("flags");
            m.flags().forEach(flags::add);
        }
        String smallest = smallestChanges(c);
        if (!smallest.isEmpty()) {
            data.put("smallest_change", "The smallest change this pair could tell: " + smallest.substring(smallest.indexOf(':') + 2).strip()
                    + ". A change below it is called \"within noise\", whatever it was.");
        }
        data.set("only_a", keys(c.onlyA()));
        data.set("only_b", keys(c.onlyB()));
        String title = "testbed compare: " + dir(a).getFileName() + " vs " + dir(b).getFileName();
        Files.createDirectories(out.toAbsolutePath().getParent());
        ObjectNode minEffect = ReportWriter.rules(data).putObject("min_effect");
        for (Figure figure : Figure.values()) {
            if (Double.isFinite(figure.minEffect())) {
                minEffect.put(figure.key(), figure.minEffect());
            }
        }
        Files.writeString(out, ReportWriter.page(title, "compare", data), StandardCharsets.UTF_8);
        return out;
    }

    /**
     * The page's {@code operations}: per compared step its operations, each with its figures keyed by
     * compare-operations.csv's columns; the notes; each figure's smallest change called.
     */
    private static ObjectNode operationsJson(OperationComparison ops) {
        ObjectNode n = EnvironmentFile.JSON.createObjectNode();
        ArrayNode steps = n.putArray("steps");
        for (OperationComparison.Step s : ops.steps()) {
            ObjectNode step = steps.addObject();
            step.put("variant", s.match().key().variant());
            step.put("scenario", s.match().key().scenario());
            step.put("level", s.match().key().describe());
            ArrayNode operations = step.putArray("operations");
            for (String op : s.operations()) {
                ObjectNode o = operations.addObject();
                o.put("operation", op);
                ObjectNode changes = o.putObject("changes");
                for (Figure f : OperationComparison.FIGURES) {
                    changes.set(f.key(), OperationComparison.TABLE.json(s.change(op, f)));
                }
            }
        }
        ArrayNode notes = n.putArray("notes");
        ops.notes().forEach(notes::add);
        ObjectNode minEffect = n.putObject("min_effect");
        for (Figure f : OperationComparison.FIGURES) {
            minEffect.put(f.key(), f.minEffect());
        }
        return n;
    }

    private static ObjectNode side(Path p) throws IOException {
        ObjectNode n = EnvironmentFile.JSON.createObjectNode();
        Path dir = dir(p);
        n.put("dir", dir.toString());
        JsonNode env = EnvironmentFile.read(dir.resolve(EnvironmentFile.NAME));
        n.set("env", env);
        ServerPlatform platform = ServerPlatform.of(env);
        n.put("arch", platform.arch());
        n.put("platform", platform.description());
        return n;
    }

    /**
     * What each side's server ran on, one line each ({@code A: x86_64; server machine ...}), then the
     * caveat of a side whose server was emulated: compare's first lines, so that a ratio between an
     * emulated and a native server is never read as one between two machines.
     */
    public static String platforms(Path a, Path b) throws IOException {
        ServerPlatform pa = ServerPlatform.of(EnvironmentFile.read(dir(a).resolve(EnvironmentFile.NAME)));
        ServerPlatform pb = ServerPlatform.of(EnvironmentFile.read(dir(b).resolve(EnvironmentFile.NAME)));
        StringBuilder out = new StringBuilder();
        out.append("A: ").append(pa.description()).append('\n');
        out.append("B: ").append(pb.description()).append('\n');
        if (!pa.arch().equals(pb.arch())) {
            out.append("servers of different archs: ").append(pa.arch()).append(" (A) against ").append(pb.arch()).append(" (B)\n");
        }
        for (String note : platformNotes(a, b)) {
            out.append("CAVEAT ").append(note).append('\n');
        }
        return out.toString();
    }

    /** The caveat of each side whose server was emulated, prefixed with the side: {@code B: the server's aarch64 JVM ...}. */
    static List<String> platformNotes(Path a, Path b) throws IOException {
        List<String> notes = new ArrayList<>();
        ServerPlatform.of(EnvironmentFile.read(dir(a).resolve(EnvironmentFile.NAME))).caveat().ifPresent(c -> notes.add("A: " + c));
        ServerPlatform.of(EnvironmentFile.read(dir(b).resolve(EnvironmentFile.NAME))).caveat().ifPresent(c -> notes.add("B: " + c));
        return notes;
    }

    private static JsonNode row(ResultRow row) throws IOException {
        ArrayNode one = ReportWriter.rowsJson(List.of(row), List.of());
        return one.get(0);
    }

    private static ArrayNode keys(List<ResultRow.StepKey> keys) {
        ArrayNode a = EnvironmentFile.JSON.createArrayNode();
        for (ResultRow.StepKey k : keys) {
            ObjectNode n = a.addObject();
            n.put("variant", k.variant());
            n.put("scenario", k.scenario());
            n.put("level", k.describe());
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
