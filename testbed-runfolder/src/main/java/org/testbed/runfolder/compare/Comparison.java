package org.testbed.runfolder.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.stats.ForkPool;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.PairedRatio;
import org.testbed.runfolder.stats.RatioInterval;
import org.testbed.runfolder.stats.MedianInterval;
import org.testbed.runfolder.stats.Verdict;

/**
 * Two runs side by side: steps matched by variant, scenario and level (concurrency for closed
 * steps, offered rate for open ones), and for each of throughput, p99 latency and server CPU per
 * request the ratio B/A with a confidence interval and a {@link Verdict}.
 *
 * <p>A's and B's figures are results.csv's (the medians of the samples). The ratio and its
 * interval come from both runs' samples.csv, grouped by fork ({@link ForkedSamples}: the ratio of
 * the geometric means of the fork means, so it can differ slightly from b / a; Welch's interval
 * with the fork as the unit). A step with fewer than two samples on a side (a run measured once,
 * or from before samples.csv) gets the ratio of the results.csv figures, no interval, and the
 * verdict {@link Verdict#NO_NOISE_ESTIMATE}: one sample cannot tell a change from noise. A ratio is
 * undefined (NaN) when A's figure is zero or missing.
 *
 * <p>What makes a figure suspect (a warm-up cut short, a step still trending, other load on the
 * machine, a saturated load side, a single fork) never hides a verdict: it is a flag beside it,
 * in the console, compare.csv and the page. A 10× change measured on a busy machine is still a
 * 10× change.
 *
 * <p>When both runs' samples carry the server's saturation readings, each step also gets the ratio
 * of its run-queue wait per request ({@link Figure#RUNQ_WAIT}) and of its involuntary context switches
 * per request ({@link Figure#INVOLUNTARY_CS}), weighed as CPU per request is; a listen queue that
 * overflowed or a cgroup that throttled the server is a flag beside the verdicts.
 *
 * <p>When both runs have a price ({@link Pricing}), each step also gets the ratio of its cost per
 * million requests ({@link Figure#COST}): each sample's cost is its run's price × share over the
 * sample's throughput, so the ratio is (price × share) B/A over the throughput ratio, with the
 * throughput's interval turned over. With different prices per machine it is the figure that says
 * which machine is cheaper per request.
 *
 * @param priceA run A's price, empty when it has none
 * @param priceB run B's price
 */
public record Comparison(List<Match> matched, List<ResultRow.StepKey> onlyA, List<ResultRow.StepKey> onlyB,
                         Optional<Pricing> priceA, Optional<Pricing> priceB) {

    /** The driver's and the server's figures: every matched step has them. */
    public static final List<Figure> MEASURED = compared(Figure.Source.DRIVER, Figure.Source.SERVER);
    /** The server's saturation readings, compared when both runs' samples have them. */
    public static final List<Figure> SATURATION = compared(Figure.Source.SATURATION);
    /** The flight recordings' figures ({@code jfr.csv}), compared when both runs were recorded. */
    public static final List<Figure> RECORDED = compared(Figure.Source.RECORDING);
    /** The probes' figures, compared when every sample of both runs' step measured them. */
    public static final List<Figure> PROBED = compared(Figure.Source.PROBE);

    /** The figures of a sample from {@code sources} that compare weighs: those with a smallest change to call. */
    private static List<Figure> compared(Figure.Source... sources) {
        List<Figure.Source> from = List.of(sources);
        return Arrays.stream(Figure.values())
                .filter(f -> from.contains(f.source()) && f.at(Figure.Level.SAMPLE) && Double.isFinite(f.minEffect()))
                .toList();
    }

    /**
     * The verdict as {@code figure} says it ({@link Figure#verdictWords}): {@code faster}/{@code slower} for
     * throughput, latency and CPU, {@code cheaper}/{@code costlier} for cost, {@code smaller}/{@code larger}
     * for bytes; the others as they are.
     */
    public static String verdictName(Figure figure, Verdict verdict) {
        if (!verdict.changed()) {
            return verdict.wireName();
        }
        return figure.verdictWords().get(verdict == Verdict.FASTER ? 0 : 1);
    }

    /**
     * One figure of one step, B against A.
     *
     * @param a A's figure (results.csv: the median of its repeats)
     * @param b B's figure
     * @param ratio the estimate of B/A (from the samples when both sides have two or more, else b / a)
     * @param ciLow the interval's lower end, NaN without a noise estimate
     * @param ciHigh the interval's upper end, NaN without a noise estimate
     * @param confidence the interval's coverage, 0..1 (0 without an interval)
     * @param nA how many usable samples of A (positive, finite; a run without samples.csv counts its
     *           results.csv figure as one)
     * @param nB how many usable samples of B
     * @param noiseFloor the smallest change the verdict would call (see {@link Verdict}), NaN without a noise estimate
     * @param verdict faster, slower, within noise or no noise estimate
     */
    public record Change(Figure figure, double a, double b, double ratio, double ciLow, double ciHigh,
                         double confidence, int nA, int nB, double noiseFloor, Verdict verdict) {

        /**
         * The smallest change this pair could have told, in per cent: a change is called when the
         * interval excludes 1 and the ratio is beyond the noise floor, so no smaller one than the
         * larger of the floor and the interval's half-width (on the log scale, √(high / low) − 1).
         * What a "within noise" verdict rules out: {@code this pair could not tell a change under 7 %}.
         * NaN without a noise estimate.
         */
        public double smallestChangePct() {
            if (Double.isNaN(ciLow) || Double.isNaN(ciHigh) || !(ciLow > 0)) {
                return Double.NaN;
            }
            return 100 * Math.max(Double.isNaN(noiseFloor) ? 0 : noiseFloor, Math.sqrt(ciHigh / ciLow) - 1);
        }
    }

    /**
     * One step present in both runs, with its {@link Change}s: the measured ones, then cost when both
     * runs have a price, then the saturation readings, the recordings' and the probes' figures where both runs have them.
     */
    public record Match(ResultRow.StepKey key, ResultRow a, ResultRow b, List<Change> changes, List<String> flags) {

        public Change change(Figure figure) {
            return find(figure).orElseThrow(() -> new IllegalArgumentException("no " + figure.key()
                    + " figure for " + key.variant() + " " + key.scenario() + " " + key.describe()
                    + (figure == Figure.COST ? ": a run has no price" : "")));
        }

        /** The change of {@code figure}, or empty when the step has none (cost, when a run has no price). */
        public Optional<Change> find(Figure figure) {
            return changes.stream().filter(c -> c.figure() == figure).findFirst();
        }

        public double rpsRatio() {
            return change(Figure.RPS).ratio();
        }

        public double p99Ratio() {
            return change(Figure.P99).ratio();
        }

        public double cpuRatio() {
            return change(Figure.CPU).ratio();
        }
    }

    /** A change beyond noise, with the step it belongs to. */
    public record Finding(Match match, Change change) {
    }

    /** Two runs without samples: ratios only, every verdict {@link Verdict#NO_NOISE_ESTIMATE}. */
    public static Comparison of(List<ResultRow> a, List<ResultRow> b) {
        return of(a, Map.of(), b, Map.of());
    }

    /**
     * Two runs with their samples by step ({@code SamplesCsv.byStep}); a step missing from a map
     * is taken as the single sample its results.csv row is.
     */
    public static Comparison of(List<ResultRow> a, Map<ResultRow.StepKey, List<SampleRecord>> samplesA,
                                List<ResultRow> b, Map<ResultRow.StepKey, List<SampleRecord>> samplesB) {
        return of(a, samplesA, Optional.empty(), b, samplesB, Optional.empty());
    }

    /**
     * Two runs with their samples and their prices: with a price on both sides every matched step
     * also gets its {@link Figure#COST}.
     */
    public static Comparison of(List<ResultRow> a, Map<ResultRow.StepKey, List<SampleRecord>> samplesA,
                                Optional<Pricing> priceA, List<ResultRow> b,
                                Map<ResultRow.StepKey, List<SampleRecord>> samplesB, Optional<Pricing> priceB) {
        return of(a, samplesA, priceA, Map.of(), b, samplesB, priceB, Map.of());
    }

    /**
     * Two runs with their samples, prices and flight recordings' summaries by step ({@code JfrCsv.byStep}):
     * a step recorded in both runs also gets the {@link #RECORDED} figures.
     */
    public static Comparison of(List<ResultRow> a, Map<ResultRow.StepKey, List<SampleRecord>> samplesA,
                                Optional<Pricing> priceA, Map<ResultRow.StepKey, List<JfrRecord>> recordedA, List<ResultRow> b,
                                Map<ResultRow.StepKey, List<SampleRecord>> samplesB, Optional<Pricing> priceB,
                                Map<ResultRow.StepKey, List<JfrRecord>> recordedB) {
        return of(a, samplesA, priceA, recordedA, b, samplesB, priceB, recordedB, false);
    }

    /**
     * As above; {@code oneRun}: A and B are two sets of conditions of one run ({@code --conditions
     * plain,work20us}), measured in the same passes and rounds, so that each figure is judged by the
     * ratios of their windows paired by fork and round ({@link PairedRatio}) where they have two pairs or
     * more.
     */
    public static Comparison of(List<ResultRow> a, Map<ResultRow.StepKey, List<SampleRecord>> samplesA,
                                Optional<Pricing> priceA, Map<ResultRow.StepKey, List<JfrRecord>> recordedA, List<ResultRow> b,
                                Map<ResultRow.StepKey, List<SampleRecord>> samplesB, Optional<Pricing> priceB,
                                Map<ResultRow.StepKey, List<JfrRecord>> recordedB, boolean oneRun) {
        Map<ResultRow.StepKey, ResultRow> byKeyB = index(b);
        Map<ResultRow.StepKey, ResultRow> byKeyA = index(a);
        RunPools poolsA = RunPools.of(byKeyA, samplesA);
        RunPools poolsB = RunPools.of(byKeyB, samplesB);
        List<Match> matched = new ArrayList<>();
        List<ResultRow.StepKey> onlyA = new ArrayList<>();
        for (Map.Entry<ResultRow.StepKey, ResultRow> e : byKeyA.entrySet()) {
            ResultRow rb = byKeyB.get(e.getKey());
            if (rb == null) {
                onlyA.add(e.getKey());
                continue;
            }
            ResultRow ra = e.getValue();
            List<String> flags = new ArrayList<>();
            if (!ra.driver().equals(rb.driver())) {
                flags.add("different drivers: " + ra.driver() + " / " + rb.driver());
            }
            if (!ra.origin().jdk().equals(rb.origin().jdk())) {
                flags.add("JDK " + ra.origin().jdk() + " / " + rb.origin().jdk());
            }
            if (ra.throughput().errors() > 0 || rb.throughput().errors() > 0) {
                flags.add("errors " + ra.throughput().errors() + " / " + rb.throughput().errors());
            }
            List<SampleRecord> sa = samplesA.getOrDefault(e.getKey(), List.of());
            List<SampleRecord> sb = samplesB.getOrDefault(e.getKey(), List.of());
            flags.addAll(caveats(sa, sb));
            List<Change> changes = new ArrayList<>();
            boolean paired = oneRun && PairedRatio.of(windows(Figure.RPS, sa), windows(Figure.RPS, sb)).isPresent();
            if (paired) {
                flags.add("windows paired by fork and round (one run)");
            }
            for (Figure figure : MEASURED) {
                List<double[]> forksA = byFork(figure, sa, ra);
                List<double[]> forksB = byFork(figure, sb, rb);
                Optional<RatioInterval> pairedRatio = paired ? PairedRatio.of(windows(figure, sa), windows(figure, sb))
                        : Optional.empty();
                changes.add(pairedRatio.map(r -> {
                    Judgement j = Judgement.paired(figure.higherIsBetter(), r,
                            PairedRatio.noiseFloor(windows(figure, sa), windows(figure, sb), figure.minEffect()));
                    return new Change(figure, ra.figure(figure), rb.figure(figure), j.ratio(), j.ciLow(), j.ciHigh(),
                            j.confidence(), j.nA(), j.nB(), j.noiseFloor(), j.verdict());
                }).orElseGet(() -> change(figure, ra.figure(figure), rb.figure(figure), forksA, forksB,
                        poolsA.others(figure, e.getKey(), forksA), poolsB.others(figure, e.getKey(), forksB))));
            }
            if (priceA.isPresent() && priceB.isPresent()) {
                // A cost is a price over a throughput: on the log scale its forks scatter as the throughput's do.
                List<double[]> rpsA = byFork(Figure.RPS, sa, ra);
                List<double[]> rpsB = byFork(Figure.RPS, sb, rb);
                changes.add(change(Figure.COST, costOf(priceA.get(), ra.figure(Figure.RPS)), costOf(priceB.get(), rb.figure(Figure.RPS)),
                        costOf(priceA.get(), rpsA), costOf(priceB.get(), rpsB),
                        poolsA.others(Figure.RPS, e.getKey(), rpsA), poolsB.others(Figure.RPS, e.getKey(), rpsB)));
            }
            if (hasSaturation(sa) && hasSaturation(sb)) {
                for (Figure figure : SATURATION) {
                    List<double[]> forksA = byFork(figure, sa, ra);
                    List<double[]> forksB = byFork(figure, sb, rb);
                    changes.add(change(figure, MedianInterval.median(Judgement.flat(forksA)), MedianInterval.median(Judgement.flat(forksB)),
                            forksA, forksB, poolsA.others(figure, e.getKey(), forksA), poolsB.others(figure, e.getKey(), forksB)));
                }
            }
            for (Figure figure : PROBED) {
                if (measured(figure, sa) && measured(figure, sb)) {
                    List<double[]> forksA = byFork(figure, sa, ra);
                    List<double[]> forksB = byFork(figure, sb, rb);
                    changes.add(change(figure, MedianInterval.median(Judgement.flat(forksA)), MedianInterval.median(Judgement.flat(forksB)),
                            forksA, forksB));
                }
            }
            changes.addAll(recordedChanges(recordedA.getOrDefault(e.getKey(), List.of()),
                    recordedB.getOrDefault(e.getKey(), List.of())));
            matched.add(new Match(e.getKey(), ra, rb, List.copyOf(changes), flags));
        }
        List<ResultRow.StepKey> onlyB = new ArrayList<>();
        for (ResultRow.StepKey key : byKeyB.keySet()) {
            if (!byKeyA.containsKey(key)) {
                onlyB.add(key);
            }
        }
        return new Comparison(matched, onlyA, onlyB, priceA, priceB);
    }

    /**
     * The {@link #RECORDED} figures of a step recorded in both runs, A and B the medians of their
     * samples, each weighed fork by fork as CPU per request is; a figure that is zero in every sample
     * of both (no virtual thread pinned, a window without a GC pause) is left out: there is no change
     * to weigh, and no ratio of nothing to nothing.
     */
    private static List<Change> recordedChanges(List<JfrRecord> a, List<JfrRecord> b) {
        List<Change> changes = new ArrayList<>();
        if (a.isEmpty() || b.isEmpty()) {
            return changes;
        }
        for (Figure figure : RECORDED) {
            List<double[]> forksA = ForkedSamples.byFork(a, JfrRecord::repeat, r -> r.figure(figure));
            List<double[]> forksB = ForkedSamples.byFork(b, JfrRecord::repeat, r -> r.figure(figure));
            double[] all = Stream.concat(forksA.stream(), forksB.stream()).flatMapToDouble(Arrays::stream).toArray();
            if (Arrays.stream(all).allMatch(v -> v == 0 || Double.isNaN(v))) {
                continue;
            }
            changes.add(change(figure, MedianInterval.median(Judgement.flat(forksA)), MedianInterval.median(Judgement.flat(forksB)),
                    forksA, forksB));
        }
        return changes;
    }

    /** Whether every sample of a step measured {@code figure} (a run without the probe did not). */
    private static boolean measured(Figure figure, List<SampleRecord> samples) {
        return !samples.isEmpty() && samples.stream().allMatch(s -> s.measured().has(figure));
    }

    /** Whether a step's samples carry the server's saturation readings (a run from before them does not). */
    private static boolean hasSaturation(List<SampleRecord> samples) {
        return !samples.isEmpty() && samples.stream().allMatch(s -> s.saturation().known());
    }

    /** The cost of a million requests at {@code rps} under {@code price}. */
    public static double costOf(Pricing price, double rps) {
        return price.costPerMillion(rps);
    }

    /** Throughput samples grouped by fork, each turned into its cost. */
    private static List<double[]> costOf(Pricing price, List<double[]> rpsForks) {
        return rpsForks.stream().map(f -> Arrays.stream(f).map(price::costPerMillion).toArray()).toList();
    }

    /**
     * One figure of samples measured once per fresh server (or search): {@link #change(Figure, double,
     * double, List, List)} with every sample its own fork.
     */
    public static Change change(Figure figure, double a, double b, double[] samplesA, double[] samplesB) {
        return change(figure, a, b, eachItsOwnFork(samplesA), eachItsOwnFork(samplesB));
    }

    /**
     * One figure: {@code a} and {@code b} as shown, the ratio, interval and verdict from the
     * samples grouped by fork when each side has at least two usable ones (positive, finite), else
     * b / a and {@link Verdict#NO_NOISE_ESTIMATE}. The noise floor of the verdict is that of
     * {@link Verdict#noiseFloor}, from all the samples of each side.
     */
    public static Change change(Figure figure, double a, double b, List<double[]> forksA, List<double[]> forksB) {
        return change(figure, a, b, forksA, forksB, ForkPool.NONE, ForkPool.NONE);
    }

    /**
     * One figure, each side's forks leaning on the spread between forks of its run's other steps
     * ({@link ForkedSamples#estimate(List, ForkPool)}).
     */
    public static Change change(Figure figure, double a, double b, List<double[]> forksA, List<double[]> forksB,
                                ForkPool othersA, ForkPool othersB) {
        Judgement j = Judgement.of(figure.higherIsBetter(), figure.minEffect(), a, b, forksA, forksB, othersA, othersB);
        return new Change(figure, a, b, j.ratio(), j.ciLow(), j.ciHigh(), j.confidence(), j.nA(), j.nB(), j.noiseFloor(),
                j.verdict());
    }

    /** A step's samples as windows keyed by fork and round, for {@link PairedRatio}. */
    private static List<PairedRatio.Window> windows(Figure figure, List<SampleRecord> samples) {
        return samples.stream().map(s -> new PairedRatio.Window(s.repeat(), s.iteration(), s.figure(figure))).toList();
    }

    private static List<double[]> eachItsOwnFork(double[] samples) {
        return Arrays.stream(samples).mapToObj(v -> new double[] {v}).toList();
    }

    /**
     * The flags that make a step's figures suspect, each with how many of the samples it touched:
     * they are shown beside the verdicts, never instead of them.
     */
    static List<String> caveats(List<SampleRecord> a, List<SampleRecord> b) {
        List<SampleRecord> all = new ArrayList<>(a);
        all.addAll(b);
        List<String> caveats = new ArrayList<>();
        count(caveats, all, s -> !s.caveats().warmupSettled(), "warm-up cut short");
        count(caveats, all, s -> !s.caveats().steady(), "NOT STEADY");
        count(caveats, all, s -> s.caveats().notQuiet(), "NOT QUIET");
        count(caveats, all, s -> s.caveats().loadSaturated(), "SATURATED");
        count(caveats, all, s -> s.saturation().listenQueueOverflowed(), "listen queue overflowed", ": " + Saturation.CONNECT_RETRIES);
        count(caveats, all, s -> s.saturation().throttledMs() > 0, "CPU throttled by a cgroup limit");
        boolean oneForkA = !a.isEmpty() && a.stream().map(SampleRecord::repeat).distinct().count() == 1 && a.size() > 1;
        boolean oneForkB = !b.isEmpty() && b.stream().map(SampleRecord::repeat).distinct().count() == 1 && b.size() > 1;
        if (oneForkA || oneForkB) {
            caveats.add("one fork in " + (oneForkA && oneForkB ? "A and B" : oneForkA ? "A" : "B")
                    + ": the spread between fresh JVMs is not in the interval");
        }
        return caveats;
    }

    private static void count(List<String> caveats, List<SampleRecord> samples, Predicate<SampleRecord> flagged,
                              String name) {
        count(caveats, samples, flagged, name, "");
    }

    /** As above, the caveat followed by {@code why} it makes the figures suspect. */
    private static void count(List<String> caveats, List<SampleRecord> samples, Predicate<SampleRecord> flagged,
                              String name, String why) {
        long n = samples.stream().filter(flagged).count();
        if (n > 0) {
            caveats.add(name + " in " + n + " of " + samples.size() + " samples" + why);
        }
    }

    /** The changes beyond noise, step by step in file order. */
    public List<Finding> findings() {
        List<Finding> findings = new ArrayList<>();
        for (Match m : matched) {
            for (Change c : m.changes()) {
                if (c.verdict().changed()) {
                    findings.add(new Finding(m, c));
                }
            }
        }
        return findings;
    }

    /** How many figures (steps × metrics, cost included when both runs have a price) were compared. */
    public long figures() {
        return matched.stream().mapToLong(m -> m.changes().size()).sum();
    }

    /** Whether exactly one of the runs has a price: its costs cannot be compared. */
    public boolean onlyOneSidePriced() {
        return priceA.isPresent() != priceB.isPresent();
    }

    /** How many figures (steps × metrics) had no noise estimate. */
    public long withoutNoiseEstimate() {
        return matched.stream().flatMap(m -> m.changes().stream()).filter(c -> c.verdict() == Verdict.NO_NOISE_ESTIMATE).count();
    }

    /** {@code b / a}, or NaN when {@code a} is zero or either is missing. */
    public static double ratio(double b, double a) {
        if (Double.isNaN(a) || Double.isNaN(b) || a == 0) {
            return Double.NaN;
        }
        return b / a;
    }

    /** One run's spread between forks, per measured figure and per scenario and conditions ({@link GroupPools}). */
    private record RunPools(Map<Figure, GroupPools> pools) {

        static RunPools of(Map<ResultRow.StepKey, ResultRow> rows, Map<ResultRow.StepKey, List<SampleRecord>> samples) {
            Map<Figure, GroupPools> pools = new EnumMap<>(Figure.class);
            for (Figure figure : Stream.concat(MEASURED.stream(), SATURATION.stream()).toList()) {
                Map<String, List<List<double[]>>> steps = new LinkedHashMap<>();
                for (Map.Entry<ResultRow.StepKey, ResultRow> e : rows.entrySet()) {
                    steps.computeIfAbsent(group(e.getKey()), k -> new ArrayList<>())
                            .add(byFork(figure, samples.getOrDefault(e.getKey(), List.of()), e.getValue()));
                }
                pools.put(figure, GroupPools.of(steps));
            }
            return new RunPools(pools);
        }

        /** The pool of the step's scenario and conditions without the step itself. */
        ForkPool others(Figure figure, ResultRow.StepKey key, List<double[]> forks) {
            return pools.get(figure).others(group(key), forks);
        }
    }

    /** Steps pool with those of their scenario under the same conditions, whatever the variant and level. */
    static String group(ResultRow.StepKey key) {
        return key.scenario() + " " + key.conditions().label();
    }

    /**
     * A step's samples of one figure grouped by fork (samples.csv's {@code repeat}), or its
     * results.csv figure as the only sample when it has none.
     */
    private static List<double[]> byFork(Figure figure, List<SampleRecord> samples, ResultRow row) {
        if (samples.isEmpty()) {
            return List.of(new double[] {row.figure(figure)});
        }
        return ForkedSamples.byFork(samples, SampleRecord::repeat, s -> s.figure(figure));
    }

    /** Rows by key, in file order; when a key repeats (a re-run step) the last row wins. */
    private static Map<ResultRow.StepKey, ResultRow> index(List<ResultRow> rows) {
        Map<ResultRow.StepKey, ResultRow> map = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            map.put(row.key(), row);
        }
        return map;
    }
}
