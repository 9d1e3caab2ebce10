package org.testbed.runfolder.summary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.ForkedSamples;
import org.testbed.runfolder.stats.Modes;

/**
 * The rules that turn a run folder into findings. Each looks for one pattern in the figures and
 * says nothing when it does not apply; each finding carries its figures, the rule, and the report
 * section that shows the evidence. No text is generated beyond these sentences, and nothing is
 * fetched.
 *
 * <ul>
 *   <li>{@link #littlesLaw}: a closed-model step on a slow endpoint whose throughput is what its
 *       threads, or its users, allow at its latency (L = λW): the bound, not the server's speed,
 *       set the figure.</li>
 *   <li>{@link #saturatedLoadSide}: the load side was saturated: the figure is a lower bound.</li>
 *   <li>{@link #twoModes}: a step's forks split more than {@value #MODES_APART_PCT} % apart: two modes when each
 *       side has two forks or more, else forks apart for a reason the run cannot tell.</li>
 *   <li>{@link #queueing}: the server's threads waited for a CPU a large share of the time, or GC took a
 *       large share of its CPU: where CPU per request and latency went.</li>
 *   <li>{@link #conditionCost}: what TLS, gzip or metrics cost against the same step under plain.</li>
 *   <li>{@link #capacity}: the capacity under an SLA, best first.</li>
 * </ul>
 */
public final class FindingRules {
    /** A service time (or a latency) at most this times the delay is the delay and its handling: no queue in it. */
    static final double SERVICE_SLACK = 1.15;
    /** Modes closer than this are JVM noise, not worth a finding. */
    static final double MODES_APART_PCT = 5;
    /** Run-queue wait, as a share of the CPUs the server could use, from which queueing is worth saying. */
    static final double QUEUED_PCT = 50;
    /** GC time, as a share of the server's CPU time, from which it is worth saying. */
    static final double GC_SHARE = 0.10;

    private FindingRules() {
    }

    /** Every rule's findings on one run folder's tables, in the order above. */
    public static List<Finding> of(List<ResultRow> rows, Map<ResultRow.StepKey, StepRecord> steps,
                                   Map<ResultRow.StepKey, List<SampleRecord>> samples, List<CapacityCsv.Summary> capacities) {
        List<Finding> findings = new ArrayList<>();
        findings.addAll(littlesLaw(rows, steps));
        findings.addAll(saturatedLoadSide(rows, steps));
        findings.addAll(twoModes(rows, samples));
        findings.addAll(queueing(rows, steps));
        findings.addAll(conditionCost(rows));
        findings.addAll(capacity(capacities));
        return findings;
    }

    /**
     * Little's law on a closed-model step with a server-side delay of D: in a closed loop throughput
     * is always users over latency, so what tells is the latency. A sync variant with fewer threads T
     * than users whose throughput is T over a service time between D and {@value #SERVICE_SLACK} × D
     * is held by its pool (its users queue for a thread); a variant whose median latency is within
     * that of D is held by the client (every user waits out the delay and little more). One finding
     * per scenario, level and bound, naming its variants.
     */
    static List<Finding> littlesLaw(List<ResultRow> rows, Map<ResultRow.StepKey, StepRecord> steps) {
        Map<String, List<String>> byBound = new LinkedHashMap<>();
        Map<String, String> texts = new LinkedHashMap<>();
        for (ResultRow r : rows) {
            StepRecord step = steps.get(r.key());
            if (step == null || step.setup().delayMs() <= 0 || r.key().targetRps() > 0 || !(r.throughput().rps() > 0)) {
                continue;
            }
            double delay = step.setup().delayMs() / 1000.0;
            int users = r.key().concurrency();
            int threads = step.setup().threads();
            double rps = r.throughput().rps();
            String where = r.scenario() + " " + r.key().describe();
            if ("sync".equals(r.mode()) && threads > 0 && threads < users && rps <= threads / delay * 1.02
                    && rps >= threads / (delay * SERVICE_SLACK)) {
                String key = where + "|threads";
                byBound.computeIfAbsent(key, k -> new ArrayList<>()).add(r.variant());
                texts.putIfAbsent(key, String.format(Locale.ROOT, "%s: %s stop at %s req/s: %d threads over a service time of"
                                + " %.0f ms (the %.0f ms delay and its handling) is Little's law for their pool; the other users"
                                + " queue for a thread (median latency %.0f ms)", where, "%s", whole(rps), threads,
                        1000 * threads / rps, 1000 * delay, r.latency().p50Ms()));
            } else if (r.latency().p50Ms() > 0 && r.latency().p50Ms() / 1000 <= delay * SERVICE_SLACK
                    && rps >= users / (delay * SERVICE_SLACK)) {
                String key = where + "|users";
                byBound.computeIfAbsent(key, k -> new ArrayList<>()).add(r.variant());
                texts.putIfAbsent(key, String.format(Locale.ROOT, "%s: %s reach %s req/s, the %d users over a latency of %.0f ms"
                                + " (the %.0f ms delay and little more): the client's users are the bound, not the server",
                        where, "%s", whole(rps), users, r.latency().p50Ms(), 1000 * delay));
            }
        }
        List<Finding> out = new ArrayList<>();
        byBound.forEach((key, variants) -> out.add(new Finding("littles-law", String.format(Locale.ROOT, texts.get(key),
                String.join(", ", variants)), "L = λW: throughput at threads (or users) over a service time within "
                + Math.round((SERVICE_SLACK - 1) * 100) + " % of the delay", "scenario-" + key.substring(0, key.indexOf(' ')))));
        return out;
    }

    /** Steps whose load side (driver, memcached, loopback interrupts) was saturated: their throughput is a lower bound. */
    static List<Finding> saturatedLoadSide(List<ResultRow> rows, Map<ResultRow.StepKey, StepRecord> steps) {
        List<String> saturated = rows.stream().filter(r -> steps.containsKey(r.key()) && steps.get(r.key()).load().saturated())
                .map(r -> r.variant() + " " + r.scenario() + " " + r.key().describe()).toList();
        if (saturated.isEmpty()) {
            return List.of();
        }
        return List.of(new Finding("saturated-load-side", String.join(", ", saturated) + ": the load side, not the server,"
                + " set " + (saturated.size() == 1 ? "its figure: a lower bound" : "their figures: lower bounds")
                + " of what the server can do", "the driver, memcached and loopback interrupts used more than the saturation"
                + " threshold of the load CPUs", "steps"));
    }

    /**
     * Steps whose forks split at a gap no iteration noise explains, more than 5 % apart. With two
     * forks or more on each side the JVMs fell in two modes, and the interval covers both; with one
     * fork on a side the run cannot tell a JVM of its own from the machine's speed changing between
     * the two (on the reference VM the host slows the CPUs in bursts: docs/FINDINGS.md), so the
     * finding says that rather than claim two modes.
     */
    static List<Finding> twoModes(List<ResultRow> rows, Map<ResultRow.StepKey, List<SampleRecord>> samples) {
        List<Finding> out = new ArrayList<>();
        for (ResultRow r : rows) {
            List<SampleRecord> s = samples.getOrDefault(r.key(), List.of());
            List<Integer> forks = s.stream().map(SampleRecord::repeat).distinct().sorted().toList();
            Optional<Modes> modes = Modes.of(ForkedSamples.byFork(s, SampleRecord::repeat, x -> x.figures().rps()), forks);
            if (modes.isPresent() && modes.get().apartPct() > MODES_APART_PCT) {
                Modes m = modes.get();
                boolean settled = m.high().forks().size() > 1 && m.low().forks().size() > 1;
                String apart = String.format(Locale.ROOT, "%s %s %s: its JVMs ran %.0f %% apart, %s req/s (fork%s %s) against %s"
                                + " (fork%s %s)", r.variant(), r.scenario(), r.key().describe(), m.apartPct(), whole(m.high().centre()),
                        m.high().forks().size() > 1 ? "s" : "", joined(m.high().forks()), whole(m.low().centre()),
                        m.low().forks().size() > 1 ? "s" : "", joined(m.low().forks()));
                String rule = "the forks' mean throughputs split at a gap wider than four standard errors of their iterations and"
                        + " than either side's own range";
                out.add(settled
                        ? new Finding("two-modes", apart + ": two modes, not one noisy figure; its interval covers both", rule,
                                "scenario-" + r.scenario())
                        : new Finding("forks-apart", apart + ", more than their windows scatter: either the JVMs differ or"
                                + " the machine's speed changed between them, and more forks would tell which", rule,
                                "scenario-" + r.scenario()));
            }
        }
        return out;
    }

    /**
     * Where CPU per request and latency went: threads runnable without a CPU for at least half the
     * time the server's CPUs had (its run-queue wait), or GC taking a tenth of its CPU time.
     */
    static List<Finding> queueing(List<ResultRow> rows, Map<ResultRow.StepKey, StepRecord> steps) {
        List<Finding> out = new ArrayList<>();
        // One line per level: on a server pinned to one core every thread-rich variant queues, and a line per step
        // would bury the rest; the variants are named most-queued first.
        Map<String, List<ResultRow>> queued = new LinkedHashMap<>();
        for (ResultRow r : rows) {
            StepRecord step = steps.get(r.key());
            if (step != null && step.server().saturation().runQueueWaitPct() >= QUEUED_PCT) {
                queued.computeIfAbsent(r.scenario() + " " + r.key().describe(), k -> new ArrayList<>()).add(r);
            }
            String where = r.variant() + " " + r.scenario() + " " + r.key().describe();
            double cpuMs = r.server().cpuMsPerReq() * r.throughput().requests();
            if (r.server().gcMs() > 0 && cpuMs > 0 && r.server().gcMs() / cpuMs >= GC_SHARE) {
                out.add(new Finding("gc", String.format(Locale.ROOT, "%s: garbage collection took %.0f %% of its CPU time (%d"
                                + " collections, %.0f ms)", where, 100 * r.server().gcMs() / cpuMs, r.server().gcCount(),
                        r.server().gcMs()), "GC time over the server's CPU time in the window, at or above "
                        + Math.round(GC_SHARE * 100) + " %", "steps"));
            }
        }
        queued.forEach((where, list) -> {
            List<String> named = list.stream()
                    .sorted((a, b) -> Double.compare(wait(steps, b), wait(steps, a)))
                    .map(r -> String.format(Locale.ROOT, "%s %.0f %% (%.0f µs a request, %d threads)", r.variant(), wait(steps, r),
                            steps.get(r.key()).server().saturation().runQueueWaitUsPerReq(), steps.get(r.key()).server().threads()))
                    .toList();
            out.add(new Finding("queueing", where + ": threads waited for a CPU, as a share of the time the server's CPUs"
                    + " had: " + String.join(", ", named) + ". Their latency holds a queue for the CPU, and their CPU per"
                    + " request the switching", "run-queue wait (schedstat) over the window at or above " + (int) QUEUED_PCT
                    + " % of the usable CPUs' time", "steps"));
        });
        return out;
    }

    private static double wait(Map<ResultRow.StepKey, StepRecord> steps, ResultRow r) {
        return steps.get(r.key()).server().saturation().runQueueWaitPct();
    }

    /** What each condition costs: a step under TLS, gzip or metrics against the same step under plain, CPU per request and throughput. */
    static List<Finding> conditionCost(List<ResultRow> rows) {
        Map<ResultRow.StepKey, ResultRow> plain = rows.stream().filter(r -> r.conditions().equals(Conditions.PLAIN))
                .collect(Collectors.toMap(ResultRow::key, r -> r, (a, b) -> a));
        Map<String, List<String>> byCondition = new LinkedHashMap<>();
        for (ResultRow r : rows) {
            if (r.conditions().equals(Conditions.PLAIN)) {
                continue;
            }
            ResultRow.StepKey k = r.key();
            ResultRow base = plain.get(new ResultRow.StepKey(k.variant(), k.scenario(), k.concurrency(), k.targetRps(), Conditions.PLAIN));
            if (base == null || !(base.server().cpuMsPerReq() > 0) || !(r.server().cpuMsPerReq() > 0)) {
                continue;
            }
            byCondition.computeIfAbsent(r.conditions().label(), c -> new ArrayList<>()).add(String.format(Locale.ROOT,
                    "%s %s %s CPU per request ×%.2f (%.1f → %.1f µs), throughput ×%.2f", k.variant(), k.scenario(), k.level(),
                    r.server().cpuMsPerReq() / base.server().cpuMsPerReq(), 1000 * base.server().cpuMsPerReq(),
                    1000 * r.server().cpuMsPerReq(), r.throughput().rps() / base.throughput().rps()));
        }
        List<Finding> out = new ArrayList<>();
        byCondition.forEach((condition, lines) -> out.add(new Finding("condition-cost", "what " + condition + " costs against"
                + " plain: " + String.join("; ", lines), "each step under " + condition + " over the same step under plain, medians",
                "condition-cost")));
        return out;
    }

    /** The capacity under each SLA, best first. */
    static List<Finding> capacity(List<CapacityCsv.Summary> capacities) {
        Map<String, List<CapacityCsv.Summary>> bySla = new LinkedHashMap<>();
        for (CapacityCsv.Summary c : capacities) {
            bySla.computeIfAbsent(c.first().scenario() + " under " + c.first().sla() + (c.first().conditions().equals(Conditions.PLAIN)
                    ? "" : " (" + c.first().conditions().label() + ")"), k -> new ArrayList<>()).add(c);
        }
        List<Finding> out = new ArrayList<>();
        bySla.forEach((what, list) -> {
            List<String> ranked = list.stream().sorted((a, b) -> Double.compare(b.capacity().median(), a.capacity().median()))
                    .map(c -> c.first().variant() + " " + whole(c.capacity().median()) + " req/s").toList();
            out.add(new Finding("capacity", "capacity of " + what + ": " + String.join(", ", ranked), "the highest offered rate"
                    + " whose step met the SLA with no error, median of the searches", "capacity"));
        });
        return out;
    }

    static String whole(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String joined(List<Integer> forks) {
        return forks.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
