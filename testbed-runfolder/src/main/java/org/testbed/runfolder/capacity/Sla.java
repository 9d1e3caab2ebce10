package org.testbed.runfolder.capacity;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testbed.runfolder.csv.ResultRow;

/**
 * A service-level objective on one latency percentile, as {@code --sla} takes it: {@code p99<=5ms},
 * {@code p90<20ms}, {@code p99.9<=1s}. A step meets it when that percentile of its latency (from the
 * intended start: the open model's figure, queueing included) is within the bound and no request
 * failed: an error is never an answer in time.
 *
 * @param percentile the percentile as results.csv names its column: 50, 90, 99 or 99.9
 * @param strict {@code <} rather than {@code <=}
 * @param boundMs the bound in milliseconds
 */
public record Sla(double percentile, boolean strict, double boundMs) {
    private static final Pattern FORM = Pattern.compile(
            "p(50|90|99|99\\.9|999)\\s*(<=|<)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(us|ms|s)");

    public static final String USAGE = "--sla takes a percentile, <= or <, and a bound with its unit: p99<=5ms,"
            + " p90<20ms, p99.9<=1s (percentiles p50, p90, p99, p99.9; units us, ms, s)";

    /** Reads {@code --sla}; a malformed one is an {@link IllegalArgumentException} whose message says the form. */
    public static Sla parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not an SLA. " + USAGE);
        }
        double percentile = m.group(1).equals("999") ? 99.9 : Double.parseDouble(m.group(1));
        double value = Double.parseDouble(m.group(3));
        double ms = switch (m.group(4)) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
        if (!(ms > 0)) {
            throw new IllegalArgumentException("'" + text + "': the bound must be above 0. " + USAGE);
        }
        return new Sla(percentile, m.group(2).equals("<"), ms);
    }

    /** The step's latency at this SLA's percentile, in milliseconds. */
    public double latencyOf(ResultRow row) {
        if (percentile == 50) {
            return row.latency().p50Ms();
        }
        if (percentile == 90) {
            return row.latency().p90Ms();
        }
        return percentile == 99 ? row.latency().p99Ms() : row.latency().p999Ms();
    }

    /** Whether a step with this latency (at the percentile) and these errors meets the SLA. */
    public boolean met(double latencyMs, long errors) {
        return errors == 0 && (strict ? latencyMs < boundMs : latencyMs <= boundMs);
    }

    /** {@code p99} or {@code p99.9}. */
    public String percentileLabel() {
        return percentile == Math.rint(percentile) ? "p" + (int) percentile : "p" + percentile;
    }

    /** The canonical text, as the CSV files and the report show it: {@code p99<=5ms}. */
    public String label() {
        // Plain digits, as the form takes them: neither a long's limit for a huge bound nor an exponent for a tiny one.
        String bound = java.math.BigDecimal.valueOf(boundMs).stripTrailingZeros().toPlainString();
        return percentileLabel() + (strict ? "<" : "<=") + bound + "ms";
    }

    @Override
    public String toString() {
        return label();
    }
}
