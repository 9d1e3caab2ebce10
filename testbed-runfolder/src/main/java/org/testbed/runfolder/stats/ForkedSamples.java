package org.testbed.runfolder.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import org.apache.commons.math3.distribution.FDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The samples of one figure of one step, grouped by fork: a fork is one freshly started server,
 * warmed up once and measured over several iterations (as JMH measures forks × iterations).
 *
 * <p>Why the grouping matters: iterations of one fork share a JVM, its JIT's decisions, its heap
 * layout and memcached's state, so they scatter less than forks do. Counted as independent
 * samples, eight iterations of two forks look like eight witnesses of the noise when they are two,
 * and an interval built on them is too narrow whenever forks differ more than iterations do; then
 * an A/A comparison calls changes. Here the fork is the unit of replication:
 *
 * <ul>
 *   <li>Each figure is taken on the log scale (a ratio is then a difference, and throughput's
 *       scatter is closer to symmetric there). Each fork's iterations are averaged:
 *       m<sub>f</sub>. The figure's centre is the mean of the fork means, each fork weighted
 *       alike, exponentiated: a geometric mean.</li>
 *   <li>The variance of a fork mean is estimated from the fork means' own scatter,
 *       s<sub>b</sub>², which holds the JVM-to-JVM spread and the iterations' scatter both
 *       (σ<sub>b</sub>² + σ<sub>w</sub>²/n). It is floored at the iterations' pooled scatter
 *       divided by their count, s<sub>w</sub>²/n̄ (n̄ the harmonic mean of the iteration counts):
 *       a spread between JVMs cannot be negative, and with two or three forks s<sub>b</sub>² alone
 *       is often tiny by chance. The variance of the centre is that divided by the number of
 *       forks F, with F − 1 degrees of freedom: the one-way random-effects model's estimate for a
 *       balanced design.</li>
 *   <li>When the forks do not differ beyond what their iterations' scatter explains (the one-way
 *       ANOVA's F test of a fork effect has p above {@value #POOLING_P}), the fork means' scatter
 *       is pooled with the iterations' ((SS<sub>between</sub> + SS<sub>within</sub>) / (N − 1), N − 1
 *       degrees of freedom): the "sometimes pool" rule of analysis of variance (Bancroft), which
 *       gains the iterations' degrees of freedom when JVMs agree and keeps the fork as the unit
 *       when they do not. With two forks the fork-level estimate alone has one degree of freedom
 *       (t = 12.7): without pooling, two clean runs 10 % apart were told apart only three times in
 *       four.</li>
 *   <li>With two forks and a fork effect the fork-level estimate has one degree of freedom; the
 *       run's other steps of the same scenario lend theirs ({@link ForkPool}): their forks'
 *       spread is pooled with this step's when this step's is not beyond it (the same F test),
 *       so a step whose JVMs disagree as the others' do gets an interval with as many degrees
 *       of freedom as the run has steps, and one whose JVMs disagree more keeps its own.</li>
 *   <li>A single fork with several iterations has no estimate of the spread between JVMs: its
 *       variance is the iterations' (s<sub>w</sub>²/N, N − 1 degrees of freedom), and its
 *       {@link Estimate#forks()} of 1 lets a caller say so.</li>
 *   <li>The interval of one figure is Student's t with those degrees of freedom; of a ratio B/A,
 *       Welch's: the two variances added, the degrees of freedom by Welch–Satterthwaite.</li>
 * </ul>
 *
 * <p>A run from before forks had iterations (one sample per fork) is the same with every fork
 * of one sample: no floor, the forks' scatter alone. Samples that are NaN, infinite, zero or
 * negative are ignored (no logarithm), and so are forks left without any.
 */
public final class ForkedSamples {
    /** The coverage of every interval. */
    public static final double LEVEL = 0.95;
    /** Above this p-value of the test of a fork effect, forks and iterations are pooled. */
    public static final double POOLING_P = 0.25;

    private ForkedSamples() {
    }

    /**
     * What the samples say about the figure, on the log scale.
     *
     * @param logCentre the mean of the forks' mean logs
     * @param variance the estimated variance of {@code logCentre}; NaN when there is nothing to estimate it from
     *                 (a single sample)
     * @param df its degrees of freedom
     * @param forks forks with at least one usable sample
     * @param samples usable samples in all
     */
    public record Estimate(double logCentre, double variance, double df, int forks, int samples) {

        /** The centre as a figure: the geometric mean of the fork means. */
        public double centre() {
            return Math.exp(logCentre);
        }

        /** Whether the samples had any spread to estimate the noise from (two samples or more). */
        public boolean hasNoiseEstimate() {
            return !Double.isNaN(variance);
        }

        /**
         * The smallest change this estimate can tell, in per cent: the interval's half-width on the log
         * scale, {@code exp(t·se) − 1}, so that {@code [centre / (1 + h), centre × (1 + h)]} is the
         * interval. NaN without a noise estimate.
         */
        public double halfWidthPct() {
            if (!hasNoiseEstimate()) {
                return Double.NaN;
            }
            return 100 * Math.expm1(quantile(df) * Math.sqrt(variance));
        }

        /**
         * How many forks this estimate would need for a half-width within {@code targetPct}, if the
         * forks to come scatter as these did: the variance of one fork mean ({@link #variance()} ×
         * forks) divided by the forks, with one more degree of freedom per added fork. At least the
         * forks it has; {@code limit + 1} when even {@code limit} forks would not do, and when there is
         * no noise estimate to project from.
         */
        public int forksFor(double targetPct, int limit) {
            if (!hasNoiseEstimate() || forks < 1) {
                return limit + 1;
            }
            double perFork = variance * forks;
            double wanted = Math.log1p(targetPct / 100);
            for (int f = forks; f <= limit; f++) {
                if (quantile(df + f - forks) * Math.sqrt(perFork / f) <= wanted) {
                    return f;
                }
            }
            return limit + 1;
        }

        /** The {@link #LEVEL} interval of the centre, low and high; NaNs without a noise estimate. */
        public double[] interval() {
            if (!hasNoiseEstimate()) {
                return new double[] {Double.NaN, Double.NaN};
            }
            double half = quantile(df) * Math.sqrt(variance);
            return new double[] {Math.exp(logCentre - half), Math.exp(logCentre + half)};
        }
    }

    /** The estimate from samples grouped by fork: {@code forks.get(f)} holds fork f's iterations. */
    public static Estimate estimate(List<double[]> forks) {
        return estimate(forks, ForkPool.NONE);
    }

    /**
     * The estimate from samples grouped by fork, with the spread between forks of the run's other
     * steps ({@code others}, this step not in it) to lean on: when this step's forks differ (a
     * fork effect) but not beyond what the others' forks do (the F test of its fork means' mean
     * square against the pool's, p above {@value #POOLING_P}), the two are pooled, with their
     * degrees of freedom added; otherwise the step keeps its own estimate.
     */
    public static Estimate estimate(List<double[]> forks, ForkPool others) {
        return spanningModes(estimateAroundMean(forks, others), forks);
    }

    /**
     * An estimate whose forks fall in two modes of at least two forks each ({@link Modes}) holds
     * both: its variance is raised until the interval reaches both modes' centres. The mean of a
     * bimodal server's JVMs is a mixture's mean, and more forks narrow its interval without making
     * either mode go away: a run whose first two JVMs landed in one mode would then find another
     * run's narrow interval around the mixture a "change". Forks in one mode each, or two forks, are
     * left as they are (their interval is already wide).
     */
    private static Estimate spanningModes(Estimate e, List<double[]> forks) {
        if (!e.hasNoiseEstimate() || e.forks() < 4 || e.samples() == e.forks()) {
            return e; // two or three forks are wide already; forks of one sample each have no iterations' scatter to judge a gap by
        }
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < forks.size(); i++) {
            numbers.add(i);
        }
        Optional<Modes> modes = Modes.of(forks, numbers);
        if (modes.isEmpty() || modes.get().low().forks().size() < 2 || modes.get().high().forks().size() < 2) {
            return e;
        }
        double reach = Math.max(e.logCentre() - Math.log(modes.get().low().centre()),
                Math.log(modes.get().high().centre()) - e.logCentre());
        double needed = reach / quantile(e.df());
        return needed * needed > e.variance() ? new Estimate(e.logCentre(), needed * needed, e.df(), e.forks(), e.samples()) : e;
    }

    /** Whether {@code forks} fall in two modes of two forks or more each: no number of forks narrows them to one figure. */
    public static boolean twoSettledModes(List<double[]> forks) {
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < forks.size(); i++) {
            numbers.add(i);
        }
        Optional<Modes> modes = Modes.of(forks, numbers);
        return modes.isPresent() && modes.get().low().forks().size() >= 2 && modes.get().high().forks().size() >= 2;
    }

    /**
     * The estimate with the fork always the unit: as {@link #estimate(List, ForkPool)} but never
     * pooled with the iterations when the forks show no effect of their own. With two or three
     * forks that F test has little power, so a step whose JVMs happened to land together gets an
     * interval from its iterations alone: right on average, too narrow now and then. A rule that
     * adds forks until a step is narrow must not stop on such chance narrowness (it would keep the
     * too-narrow intervals and repair only the wide ones), so the precision phase judges each step by
     * this estimate, which is never narrower than the run's spread between JVMs allows.
     */
    public static Estimate estimateForkUnit(List<double[]> forks, ForkPool others) {
        return spanningModes(estimateAroundMean(forks, others, false), forks);
    }

    private static Estimate estimateAroundMean(List<double[]> forks, ForkPool others) {
        return estimateAroundMean(forks, others, true);
    }

    private static Estimate estimateAroundMean(List<double[]> forks, ForkPool others, boolean poolIterations) {
        List<double[]> logs = logs(forks);
        int f = logs.size();
        int n = logs.stream().mapToInt(l -> l.length).sum();
        if (n == 0) {
            return new Estimate(Double.NaN, Double.NaN, 0, 0, 0);
        }
        double[] means = logs.stream().mapToDouble(ForkedSamples::mean).toArray();
        double centre = mean(means);
        double within = 0;
        double inverseCounts = 0;
        for (int i = 0; i < f; i++) {
            for (double y : logs.get(i)) {
                within += (y - means[i]) * (y - means[i]);
            }
            inverseCounts += 1.0 / logs.get(i).length;
        }
        int withinDf = n - f;
        if (f == 1) {
            return withinDf == 0 ? new Estimate(centre, Double.NaN, 0, 1, n)
                    : new Estimate(centre, within / withinDf / n, withinDf, 1, n);
        }
        double between = 0;
        double weightedBetween = 0;
        for (int i = 0; i < f; i++) {
            between += (means[i] - centre) * (means[i] - centre);
            weightedBetween += logs.get(i).length * (means[i] - centre) * (means[i] - centre);
        }
        between /= f - 1;
        if (poolIterations && withinDf > 0 && !forkEffect(weightedBetween / (f - 1), within / withinDf, f - 1, withinDf)) {
            return new Estimate(centre, (weightedBetween + within) / (n - 1) / n, n - 1, f, n);
        }
        double floor = withinDf == 0 ? 0 : within / withinDf * (inverseCounts / f);
        if (others.df() > 0 && !forkEffect(between, others.meanSquare(), f - 1, others.df())) {
            double shared = (between * (f - 1) + others.sumOfSquares()) / (f - 1 + others.df());
            return new Estimate(centre, Math.max(shared, floor) / f, f - 1 + others.df(), f, n);
        }
        return new Estimate(centre, Math.max(between, floor) / f, f - 1, f, n);
    }

    /**
     * One figure of {@code records} grouped by fork, forks in order: how samples.csv's and
     * operations.csv's rows (each with its {@code repeat}) become the input of {@link #estimate}.
     */
    public static <T> List<double[]> byFork(List<T> records, ToIntFunction<T> fork, ToDoubleFunction<T> figure) {
        Map<Integer, List<T>> forks = new TreeMap<>();
        for (T r : records) {
            forks.computeIfAbsent(fork.applyAsInt(r), k -> new ArrayList<>()).add(r);
        }
        return forks.values().stream().map(f -> f.stream().mapToDouble(figure).toArray()).toList();
    }

    /** Each fork's usable samples (positive, finite) as logs; forks left without any are dropped. */
    private static List<double[]> logs(List<double[]> forks) {
        List<double[]> logs = new ArrayList<>();
        for (double[] fork : forks) {
            double[] l = Arrays.stream(fork).filter(v -> v > 0 && Double.isFinite(v)).map(Math::log).toArray();
            if (l.length > 0) {
                logs.add(l);
            }
        }
        return logs;
    }

    /** The mean log of each fork with usable samples. */
    static double[] logMeans(List<double[]> forks) {
        return logs(forks).stream().mapToDouble(ForkedSamples::mean).toArray();
    }

    /**
     * Whether the first mean square is beyond the second (the forks' beyond their iterations', or a
     * step's forks' beyond the run's other steps'): the F test's p at most {@link #POOLING_P}.
     */
    static boolean forkEffect(double meanSquareBetween, double meanSquareWithin, int betweenDf, int withinDf) {
        if (!(meanSquareWithin > 0)) {
            return meanSquareBetween > 0;
        }
        double p = 1 - new FDistribution(null, betweenDf, withinDf)
                .cumulativeProbability(meanSquareBetween / meanSquareWithin);
        return p <= POOLING_P;
    }

    /** Each sample its own fork: samples measured once per fresh server, or searches repeated. */
    public static Estimate ofIndependent(double[] samples) {
        List<double[]> forks = new ArrayList<>();
        for (double s : samples) {
            forks.add(new double[] {s});
        }
        return estimate(forks);
    }

    /**
     * The ratio B/A of two figures' centres with Welch's interval; a point ratio with NaN ends when
     * either side has no noise estimate (one sample).
     */
    public static RatioInterval ratio(Estimate a, Estimate b) {
        if (a.samples() == 0 || b.samples() == 0) {
            return new RatioInterval(Double.NaN, Double.NaN, Double.NaN, 0, a.samples(), b.samples());
        }
        double ratio = Math.exp(b.logCentre() - a.logCentre());
        if (!a.hasNoiseEstimate() || !b.hasNoiseEstimate()) {
            return new RatioInterval(ratio, Double.NaN, Double.NaN, 0, a.samples(), b.samples());
        }
        double variance = a.variance() + b.variance();
        double df = welchDf(a, b);
        double half = quantile(df) * Math.sqrt(variance);
        double logRatio = b.logCentre() - a.logCentre();
        return new RatioInterval(ratio, Math.exp(logRatio - half), Math.exp(logRatio + half), LEVEL, a.samples(),
                b.samples());
    }

    /**
     * Welch–Satterthwaite: (v<sub>a</sub> + v<sub>b</sub>)² / (v<sub>a</sub>²/df<sub>a</sub> +
     * v<sub>b</sub>²/df<sub>b</sub>); with both variances zero (identical samples) the smaller df.
     */
    static double welchDf(Estimate a, Estimate b) {
        double va = a.variance();
        double vb = b.variance();
        double denominator = va * va / a.df() + vb * vb / b.df();
        if (!(denominator > 0)) {
            return Math.min(a.df(), b.df());
        }
        return (va + vb) * (va + vb) / denominator;
    }

    /** Student's t quantile of {@link #LEVEL}'s two-sided interval with {@code df} degrees of freedom. */
    static double quantile(double df) {
        return new TDistribution(null, Math.max(df, 1e-3)).inverseCumulativeProbability(1 - (1 - LEVEL) / 2);
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }
}
