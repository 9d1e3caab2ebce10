package org.testbed.runfolder.gate;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/** How the gates write numbers in their messages. */
final class Numbers {
    private Numbers() {
    }

    /**
     * A measured figure: from 1000 up with one decimal at most ({@code 23456.7}, {@code 19900}),
     * below with four significant digits ({@code 4.082}, {@code 0.04213}, {@code 5}); {@code -} for
     * a figure not known.
     */
    static String figure(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        BigDecimal exact = new BigDecimal(v);
        BigDecimal rounded = Math.abs(v) >= 1000 ? exact.setScale(1, RoundingMode.HALF_UP) : exact.round(new MathContext(4));
        return plain(rounded);
    }

    /** A number as written, without trailing zeros: a bound someone gave ({@code 5}, {@code 1500.5}, {@code 0.0125}). */
    static String exact(double v) {
        return Double.isFinite(v) ? plain(BigDecimal.valueOf(v)) : figure(v);
    }

    /** The same for a number's text, {@code 5000.0} as {@code 5000}. */
    static String exact(String number) {
        return plain(new BigDecimal(number));
    }

    private static String plain(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    /** A ratio with three decimals, {@code 0.500}; {@code -} when undefined. */
    static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.3f", r);
    }

    /** A share as a percentage with one decimal, {@code 5.0 %}. */
    static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * share);
    }
}
