package org.testbed.runner.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.capacity.Sla;
import org.testbed.runfolder.price.Pricing;

/**
 * Finds the highest offered rate (open model) whose step meets an {@link Sla}: a coarse ramp that
 * doubles the rate from {@code low} until a probe misses (or {@code high} is met), then bisection
 * between the last rate met and the first missed until they are within {@code precision} of each
 * other. The caller measures each rate {@link #next()} asks for, a step of its own, and gives the
 * outcome to {@link #record}; the search holds no clock and no server, so it is tested on its own.
 *
 * <p>Doubling first keeps the search short over three decades (100 to 100 000 req/s is 10 probes)
 * and never offers more than twice what the server could take, which an overloaded probe would make
 * it pay for in the next one. A probe met while the load generator was saturated ends the search:
 * the limit measured above it would be the client's, so the capacity is stated as "at least".
 */
public final class CapacitySearch {
    /** One measured rate. */
    public record Probe(double rate, double latencyMs, long errors, boolean met, boolean loadSaturated) {
    }

    /**
     * The outcome: the highest rate met (0 when even the lowest missed), every probe in order, and
     * why the search stopped there, in words.
     */
    public record Result(double capacity, List<Probe> probes, String reason) {
    }

    private final Sla sla;
    private final double low;
    private final double high;
    private final double precision;
    private final List<Probe> probes = new ArrayList<>();
    /** The highest rate met so far and the lowest missed above it (NaN while there is none). */
    private double met = Double.NaN;
    private double missed = Double.NaN;
    private Result result;

    /**
     * @param low the first (lowest) rate offered
     * @param high the highest rate offered: met there, the capacity is stated as at least this
     * @param precision the bisection stops when the rates met and missed are within this fraction of
     *                  the rate met (0.05: within 5 %)
     */
    public CapacitySearch(Sla sla, double low, double high, double precision) {
        if (!(low > 0) || !(high >= low)) {
            throw new IllegalArgumentException("the SLA search needs 0 < lowest rate <= highest rate, not " + low + ":" + high);
        }
        if (!(precision > 0) || precision >= 1) {
            throw new IllegalArgumentException("the SLA search's precision must be between 0 and 1 (exclusive), not " + precision);
        }
        this.sla = sla;
        this.low = low;
        this.high = high;
        this.precision = precision;
    }

    /** The next rate to measure, or empty when the search is over ({@link #result()}). */
    public OptionalDouble next() {
        if (result != null) {
            return OptionalDouble.empty();
        }
        if (probes.isEmpty()) {
            return OptionalDouble.of(low);
        }
        if (Double.isNaN(missed)) {
            return OptionalDouble.of(Math.min(high, whole(met * 2)));
        }
        return OptionalDouble.of(whole((met + missed) / 2));
    }

    /** The outcome of measuring the rate {@link #next()} gave. */
    public void record(Probe probe) {
        if (result != null) {
            throw new IllegalStateException("the search is over");
        }
        probes.add(probe);
        if (probe.met()) {
            met = probe.rate();
            if (probe.loadSaturated()) {
                finish(met, String.format(Locale.ROOT, "at least %s req/s: the load generator was saturated at that"
                        + " rate, so a higher one would measure the client, not the server", rate(met)));
            } else if (Double.isNaN(missed) && met >= high) {
                finish(met, String.format(Locale.ROOT, "at least %s req/s: the highest rate offered met %s; raise"
                        + " the ceiling (--sla-rates) to find the limit", rate(met), sla.label()));
            }
        } else {
            missed = probe.rate();
            if (Double.isNaN(met)) {
                finish(0, String.format(Locale.ROOT, "even the lowest rate, %s req/s, missed %s: %s", rate(probe.rate()),
                        sla.label(), why(probe)));
                return;
            }
        }
        if (result == null && !Double.isNaN(met) && !Double.isNaN(missed) && (missed - met <= precision * met
                || whole((met + missed) / 2) <= met || whole((met + missed) / 2) >= missed)) {
            finish(met, String.format(Locale.ROOT, "%s req/s met %s, %s req/s missed it (%s)", rate(met), sla.label(),
                    rate(missed), why(last(missed))));
        }
    }

    public boolean done() {
        return result != null;
    }

    /** The outcome, once {@link #done()}. */
    public Result result() {
        if (result == null) {
            throw new IllegalStateException("the search is not over");
        }
        return result;
    }

    private void finish(double capacity, String reason) {
        result = new Result(capacity, List.copyOf(probes), reason);
    }

    private Probe last(double rate) {
        for (int i = probes.size() - 1; i >= 0; i--) {
            if (probes.get(i).rate() == rate) {
                return probes.get(i);
            }
        }
        throw new IllegalStateException("no probe at " + rate);
    }

    private String why(Probe probe) {
        if (probe.errors() > 0) {
            return probe.errors() + " request(s) failed";
        }
        return String.format(Locale.ROOT, "%s was %.2f ms", sla.percentileLabel(), probe.latencyMs());
    }

    /** Rates are whole requests per second: the probes' levels read back as they were offered. */
    private static double whole(double rate) {
        return Math.max(1, Math.round(rate));
    }

    static String rate(double rate) {
        return rate == Math.rint(rate) ? String.format(Locale.ROOT, "%,d", (long) rate) : String.format(Locale.ROOT, "%,.1f", rate);
    }

    /** The capacity.csv row of a finished search, on a run without a price. */
    public static CapacityRecord record(String variant, String scenario, Conditions conditions, Sla sla, int repeat,
                             Result result) {
        return record(variant, scenario, conditions, sla, repeat, result, Optional.empty());
    }

    /** The capacity.csv row of a finished search; with a price, the cost of a million requests at the capacity found. */
    public static CapacityRecord record(String variant, String scenario, Conditions conditions, Sla sla, int repeat,
                             Result result, Optional<Pricing> pricing) {
        StringBuilder log = new StringBuilder();
        for (Probe p : result.probes()) {
            log.append(log.isEmpty() ? "" : " ").append(ResultRow.num(p.rate(), 0)).append(p.met() ? ":met" : ":missed");
        }
        CapacityRecord record = new CapacityRecord(variant, scenario, conditions, sla.label(), repeat, result.capacity(),
                result.probes().size(), log.toString(), result.reason(), Double.NaN);
        return pricing.map(record::priced).orElse(record);
    }
}
