package org.testbed.runner.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.ForkAllocation;
import org.testbed.runfolder.stats.Modes;
import org.testbed.runfolder.stats.PrecisionTarget;
import org.testbed.runfolder.stats.VarianceComponents;
import org.testbed.runfolder.figure.Figure;

/**
 * The run's last phase with {@code --precision}: after the planned forks, forks added where the
 * uncertainty is ({@link ForkAllocation}: the step furthest beyond its target per second of cost
 * first), each measuring one variant's one scenario, until every step meets its target, a step has
 * its most forks, or the next fork would overrun the budget. Each added fork runs as many
 * iterations as the step's own variance components say buy precision at the least time
 * ({@link VarianceComponents#optimalIterations}). Every decision goes to the console and to
 * {@value #LOG}, and so does, at the end, each step that missed its target, with its forks' modes
 * when its JVMs fall in two groups.
 */
final class PrecisionPhase {
    /** The phase's log in the run folder. */
    static final String LOG = "precision.txt";
    /** How far the cost of a target is projected: a step that would need more forks than this is called out as such. */
    private static final int MAX_PROJECTED_FORKS = 50;

    /** Runs one added fork; false when the run must stop (the server's machine was lost). */
    @FunctionalInterface
    interface ForkRunner {
        boolean run(String variant, String conditions, String scenario, int fork, int iterations, String why)
                throws InterruptedException;
    }

    private final RunSettings settings;
    private final RunRecorder recorder;
    private final Progress progress;
    private final ForkCosts costs;
    private final long startNanos;
    private final Path log;
    /** The highest fork number used per variant and conditions: an added fork takes the next. */
    private final Map<String, Integer> lastFork = new HashMap<>();
    /** Groups whose added fork measured nothing (the variant failed to start, say): not chosen again. */
    private final Set<String> failed = new HashSet<>();

    /** @param startNanos when the run started ({@link System#nanoTime()}): the budget counts from there */
    PrecisionPhase(RunSettings settings, RunRecorder recorder, Progress progress, ForkCosts costs, long startNanos) {
        this.settings = settings;
        this.recorder = recorder;
        this.progress = progress;
        this.costs = costs;
        this.startNanos = startNanos;
        this.log = settings.output().out().resolve(LOG);
        // A resumed run's forks added before it was stopped: the next one added takes the number after them.
        recorder.lastForks().forEach((group, fork) -> {
            if (fork > settings.load().repeat()) {
                lastFork.put(group, fork);
            }
        });
    }

    /** Adds forks while they are needed and fit; then says which steps met the target and which did not. */
    void run(ForkRunner runner) throws IOException, InterruptedException {
        RunSettings.Precision precision = settings.precision();
        Duration planned = Duration.ofNanos(System.nanoTime() - startNanos);
        Duration budget = precision.budgetAfter(planned);
        note(String.format(Locale.ROOT, "target %s; the planned forks took %s; budget %s for the whole run%s, at most %d"
                        + " forks a step", precision.target().describe(), Progress.format(planned.toMillis()),
                Progress.format(budget.toMillis()), precision.budget().isPresent() ? "" : " (1.5 x the planned forks')",
                precision.maxForks()));
        int added = 0;
        while (true) {
            List<StepAggregate> steps = recorder.aggregates();
            Map<String, List<StepAggregate>> groups = groups(steps);
            List<ForkAllocation.StepWidth> widths = new ArrayList<>();
            Map<String, Double> forkCosts = new LinkedHashMap<>();
            for (Map.Entry<String, List<StepAggregate>> g : groups.entrySet()) {
                if (failed.contains(g.getKey())) {
                    continue;
                }
                for (StepAggregate a : g.getValue()) {
                    PrecisionTarget.Rule rule = precision.target().forScenario(a.row().scenario()).orElseThrow();
                    widths.add(new ForkAllocation.StepWidth(g.getKey(), a.widthRatio(rule), a.step().precision().forks(),
                            a.twoModes(rule)));
                }
                forkCosts.put(g.getKey(), cost(g.getValue(), iterationsFor(g.getValue())));
            }
            double secondsLeft = (budget.toNanos() - (System.nanoTime() - startNanos)) / 1e9;
            Optional<ForkAllocation.Choice> next = ForkAllocation.next(widths, forkCosts, secondsLeft, precision.maxForks());
            if (next.isEmpty()) {
                note(endReason(widths, forkCosts, secondsLeft, precision.maxForks(), added));
                Optional<String> cost = projection(groups, forkCosts);
                if (cost.isPresent()) {
                    note(cost.get());
                }
                break;
            }
            List<StepAggregate> group = groups.get(next.get().group());
            StepAggregate widest = group.stream().max(Comparator.comparingDouble(a -> width(a))).orElseThrow();
            ResultRow.StepKey key = widest.row().key();
            int iterations = iterationsFor(group);
            String forkKey = key.variant() + " " + key.conditions().label();
            int fork = lastFork.merge(forkKey, settings.load().repeat() + 1, (a, b) -> a + 1);
            String why = why(widest, iterations, next.get().costSeconds());
            note(String.format(Locale.ROOT, "+ fork %d of %s %s%s: %s", fork, key.variant(), key.scenario(),
                    key.conditions().equals(Conditions.PLAIN) ? "" : " (" + key.conditions().label() + ")", why));
            int windows = settings.load().scenarios().get(key.scenario()).size() * iterations;
            progress.added(windows, windows * settings.load().window().toMillis());
            added++;
            int before = samples(group);
            if (!runner.run(key.variant(), key.conditions().label(), key.scenario(), fork, iterations, why)) {
                break;
            }
            if (samples(groups(recorder.aggregates()).getOrDefault(next.get().group(), List.of())) <= before) {
                failed.add(next.get().group());
                note("fork " + fork + " of " + key.variant() + " " + key.scenario() + " measured nothing; no more forks for it");
            }
        }
        summarise(recorder.aggregates());
    }

    /** The steps by what one fork measures: variant, conditions, scenario. Steps without a rule are left out. */
    private Map<String, List<StepAggregate>> groups(List<StepAggregate> steps) {
        Map<String, List<StepAggregate>> groups = new LinkedHashMap<>();
        for (StepAggregate a : steps) {
            if (settings.precision().target().forScenario(a.row().scenario()).isPresent()
                    && settings.load().scenarios().containsKey(a.row().scenario()) && a.step().setup().sla().isEmpty()) {
                ResultRow.StepKey k = a.row().key();
                groups.computeIfAbsent(k.variant() + "|" + k.conditions().label() + "|" + k.scenario(), g -> new ArrayList<>()).add(a);
            }
        }
        return groups;
    }

    private static int samples(List<StepAggregate> group) {
        return group.stream().mapToInt(a -> a.samples().size()).sum();
    }

    private double width(StepAggregate a) {
        return a.widthRatio(settings.precision().target().forScenario(a.row().scenario()).orElseThrow());
    }

    /**
     * The iterations an added fork of these steps runs: what the widest step's limiting figure's
     * variance components say (Kalibera and Jones), between 1 and twice the planned iterations.
     */
    private int iterationsFor(List<StepAggregate> group) {
        StepAggregate widest = group.stream().max(Comparator.comparingDouble(this::width)).orElseThrow();
        PrecisionTarget.Rule rule = settings.precision().target().forScenario(widest.row().scenario()).orElseThrow();
        VarianceComponents c = VarianceComponents.of(StepPools.byFork(widest.samples(), figure(widest.widest(rule))));
        ResultRow.StepKey k = widest.row().key();
        double forkSeconds = costs.startSeconds(k.variant(), k.conditions().label()) + ForkCosts.warmUpSeconds(warmUps(group));
        int planned = settings.load().iterations();
        return c.optimalIterations(forkSeconds, ForkCosts.windowSeconds(settings.load().window()), planned, 2 * planned);
    }

    private double cost(List<StepAggregate> group, int iterations) {
        ResultRow.StepKey k = group.get(0).row().key();
        int windows = settings.load().scenarios().get(k.scenario()).size() * iterations;
        return costs.forkSeconds(k.variant(), k.conditions().label(), warmUps(group), windows, settings.load().window());
    }

    private static List<Double> warmUps(List<StepAggregate> group) {
        return group.stream().flatMap(a -> a.samples().stream()).map(s -> s.sample().caveats().warmupS()).toList();
    }

    static ToDoubleFunction<Sample> figure(Figure f) {
        return switch (f) {
            case RPS -> StepPools.RPS;
            case P99 -> StepPools.P99;
            case CPU -> StepPools.CPU;
            default -> throw new IllegalArgumentException(f + " has no interval in steps.csv");
        };
    }

    /** {@code rps ±12.3 % against ±5 % after 2 forks (JVMs 6.1 % apart, iterations 0.8 %); 3 iterations, about 41 s}. */
    private String why(StepAggregate a, int iterations, double costSeconds) {
        PrecisionTarget.Rule rule = settings.precision().target().forScenario(a.row().scenario()).orElseThrow();
        Figure f = a.widest(rule);
        VarianceComponents c = VarianceComponents.of(StepPools.byFork(a.samples(), figure(f)));
        return String.format(Locale.ROOT, "%s %s at %s against ±%s %% after %d fork(s) (JVMs scatter %s, iterations %s);"
                        + " %d iteration(s), about %.0f s", a.row().key().describe(), f.key(), width(a, f),
                PrecisionTarget.percent(rule.pct()), a.step().precision().forks(),
                sd(c.forkSdPct()), sd(c.iterationSdPct()), iterations, costSeconds);
    }

    private static String endReason(List<ForkAllocation.StepWidth> widths, Map<String, Double> forkCosts, double secondsLeft,
                                    int maxForks, int added) {
        long missed = widths.stream().filter(ForkAllocation.StepWidth::missed).count();
        if (missed == 0) {
            return String.format(Locale.ROOT, "every step meets its target (%d fork(s) added)", added);
        }
        boolean capped = widths.stream().filter(ForkAllocation.StepWidth::missed).allMatch(w -> w.forks() >= maxForks);
        double cheapest = widths.stream().filter(w -> w.missed() && w.forks() < maxForks)
                .mapToDouble(w -> forkCosts.getOrDefault(w.group(), Double.NaN)).min().orElse(Double.NaN);
        return String.format(Locale.ROOT, "%d step(s) still wider than their target after %d added fork(s): %s", missed, added,
                capped ? "each has its " + maxForks + " forks"
                        : String.format(Locale.ROOT, "the next fork (about %.0f s) does not fit in the %.0f s the budget leaves",
                        cheapest, Math.max(0, secondsLeft)));
    }

    /**
     * What the steps still wider than their target would cost, if the forks to come scatter as theirs
     * did ({@link StepAggregate#forksNeeded}): the forks each group needs, their time, and the budget
     * for the whole run that would pay for them. This is how a run says what its target costs on
     * this machine, rather than only that it missed it. Empty when every step met its target.
     */
    private Optional<String> projection(Map<String, List<StepAggregate>> groups, Map<String, Double> forkCosts) {
        int limit = settings.precision().maxForks();
        int forks = 0;
        double seconds = 0;
        List<String> beyond = new ArrayList<>();
        List<String> bimodal = new ArrayList<>();
        for (Map.Entry<String, List<StepAggregate>> g : groups.entrySet()) {
            int extra = 0;
            for (StepAggregate a : g.getValue()) {
                PrecisionTarget.Rule rule = settings.precision().target().forScenario(a.row().scenario()).orElseThrow();
                if (a.widthRatio(rule) <= 1) {
                    continue;
                }
                String name = a.row().variant() + " " + a.row().scenario() + " " + a.row().key().describe();
                if (a.twoModes(rule)) {
                    bimodal.add(name);
                    continue;
                }
                int needed = a.forksNeeded(rule, MAX_PROJECTED_FORKS);
                if (needed > limit) {
                    beyond.add(name + (needed > MAX_PROJECTED_FORKS ? " (over " + MAX_PROJECTED_FORKS + ")" : " (" + needed + ")"));
                }
                extra = Math.max(extra, Math.min(needed, limit) - a.step().precision().forks());
            }
            if (extra > 0 && forkCosts.containsKey(g.getKey())) {
                forks += extra;
                seconds += extra * forkCosts.get(g.getKey());
            }
        }
        if (forks == 0 && beyond.isEmpty() && bimodal.isEmpty()) {
            return Optional.empty();
        }
        List<String> clauses = new ArrayList<>();
        if (forks > 0) {
            long wholeRun = Duration.ofNanos(System.nanoTime() - startNanos).toSeconds() + Math.round(seconds);
            clauses.add(String.format(Locale.ROOT, "the steps still wider would need about %d more fork(s) (at most --max-forks %d"
                            + " each), about %s more (--budget %dm for the whole run), if their next JVMs scatter as these did",
                    forks, limit,
                    Progress.format(Math.round(seconds * 1000)), (wholeRun + 59) / 60));
        }
        if (!beyond.isEmpty()) {
            clauses.add(String.format(Locale.ROOT, "%d step(s) would need more than --max-forks %d: %s", beyond.size(), limit,
                    firstOf(beyond)));
        }
        if (!bimodal.isEmpty()) {
            clauses.add(String.format(Locale.ROOT, "%d step(s) fall in two modes, which no number of forks narrows: %s",
                    bimodal.size(), firstOf(bimodal)));
        }
        return Optional.of("to meet the target: " + String.join("; ", clauses));
    }

    /** The first few names, then how many more: the MISSED lines below name every step. */
    private static String firstOf(List<String> names) {
        int shown = Math.min(names.size(), 5);
        String first = String.join(", ", names.subList(0, shown));
        return names.size() > shown ? first + " and " + (names.size() - shown) + " more" : first;
    }

    /** Each step that missed its target, by name, with the forks' modes when its JVMs fall in two groups. */
    private void summarise(List<StepAggregate> steps) throws IOException {
        for (StepAggregate a : steps) {
            StepRecord.Precision p = a.step().precision();
            if (!p.missed()) {
                continue;
            }
            PrecisionTarget.Rule rule = settings.precision().target().forScenario(a.row().scenario()).orElseThrow();
            Figure f = a.widest(rule);
            note(String.format(Locale.ROOT, "MISSED %s %s %s: %s %s against ±%s %% after %d fork(s)%s", a.row().variant(),
                    a.row().scenario(), a.row().key().describe(), f.key(), width(a, f), PrecisionTarget.percent(rule.pct()), p.forks(),
                    modes(a, f)));
        }
    }

    /** {@code ; its JVMs fall in two modes, 56.5 k (forks 1, 3) and 49.4 k (forks 2, 4), 14 % apart}, or the fork means. */
    static String modes(StepAggregate a, Figure f) {
        Map<Integer, List<Sample>> byFork = new TreeMap<>();
        for (Sample s : a.samples()) {
            byFork.computeIfAbsent(s.sample().repeat(), k -> new ArrayList<>()).add(s);
        }
        List<Integer> numbers = new ArrayList<>(byFork.keySet());
        List<double[]> values = StepPools.byFork(a.samples(), figure(f));
        Optional<Modes> modes = Modes.of(values, numbers);
        if (modes.isPresent() && modes.get().low().forks().size() >= 2 && modes.get().high().forks().size() >= 2) {
            Modes m = modes.get();
            return String.format(Locale.ROOT, "; its JVMs fall in two modes, %s (forks %s) and %s (forks %s), %.0f %% apart",
                    figure(m.low().centre()), join(m.low().forks()), figure(m.high().centre()),
                    join(m.high().forks()), m.apartPct());
        }
        List<String> means = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            double[] v = values.get(i);
            double mean = Arrays.stream(v).filter(x -> x > 0).map(Math::log).average().orElse(Double.NaN);
            means.add(numbers.get(i) + ": " + figure(Math.exp(mean)));
        }
        return "; fork means " + String.join(", ", means);
    }

    /** A figure to four significant digits, whole numbers whole: {@code 56432}, {@code 0.04213}. */
    static String figure(double v) {
        return Math.abs(v) >= 1000 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.4g", v);
    }

    private static String join(List<Integer> forks) {
        return forks.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private void note(String line) throws IOException {
        progress.info("precision: " + line);
        Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /**
     * A figure's half-width as shown, and as judged when that is wider: {@code ±5.4 % (±12.9 % with the
     * fork as the unit)}, so that a step shown within its target and judged beyond it says why.
     */
    static String width(StepAggregate a, Figure f) {
        double shown = a.halfWidthPct(f);
        double judged = a.judgedHalfWidthPct(f);
        if (Double.isNaN(shown) || Double.isNaN(judged) || judged <= shown * 1.01) {
            return pct(Double.isNaN(shown) ? judged : shown);
        }
        return pct(shown) + " (" + pct(judged) + " with the fork as the unit)";
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "(no interval)" : String.format(Locale.ROOT, "±%.1f %%", v);
    }

    private static String sd(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", v);
    }

}
