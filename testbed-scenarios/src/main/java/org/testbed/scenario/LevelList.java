package org.testbed.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one parser of load levels written on a command line: a range {@code FROM:TO:STEP}
 * ({@code 50:1100:50}) or a comma-separated list ({@code 8,64,256}). The Gatling shapes and the
 * runner's {@code --concurrency} and {@code --rate} read their levels through it, so that the same
 * text means the same levels in every tool.
 */
public final class LevelList {
    /** Rounding slack when a fractional step is added up to TO, so that TO itself is a level. */
    private static final double SLACK = 1e-9;
    /**
     * The most levels one text may name. Far more than any run measures, and it keeps a range such as
     * {@code 0:1e9:1e-9}, or one whose STEP is too small to move FROM at all ({@code 1e20:1e21:1}), from
     * counting forever: it is refused instead.
     */
    public static final int MAX_LEVELS = 10_000;

    private LevelList() {
    }

    /** {@code FROM:TO:STEP} as its three numbers, unchecked; empty when the text is not three numbers. */
    public static Optional<double[]> fromToStep(String text) {
        String[] parts = text.strip().split(":", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            return Optional.of(new double[] {number(parts[0]), number(parts[1]), number(parts[2])});
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The levels of a range (FROM, FROM+STEP, ... up to TO) or of a list, in the order written.
     *
     * @param parameter the name the user knows the option by, for the message, e.g. {@code --rate}
     * @throws InvalidParameterException when the text is neither, a range runs backwards, names no level
     *         or more than {@link #MAX_LEVELS}
     */
    public static List<Double> levels(String parameter, String text) {
        String allowed = "FROM:TO:STEP with FROM <= TO and STEP > 0, or a comma-separated list of numbers";
        List<Double> values = new ArrayList<>();
        if (text.contains(":")) {
            double[] range = fromToStep(text).orElseThrow(() -> new InvalidParameterException(parameter, "'" + text + "'", allowed));
            double from = range[0];
            double to = range[1];
            double step = range[2];
            if (!(step > 0) || to < from) {
                throw new InvalidParameterException(parameter, "'" + text + "'", allowed);
            }
            for (double v = from; v <= to + SLACK; v += step) {
                values.add(v);
                if (values.size() > MAX_LEVELS) {
                    throw new InvalidParameterException(parameter, "'" + text + "'", "at most " + MAX_LEVELS + " levels: " + allowed);
                }
            }
        } else {
            try {
                for (String part : text.split(",")) {
                    if (!part.isBlank()) {
                        values.add(number(part));
                    }
                }
                if (values.size() > MAX_LEVELS) {
                    throw new InvalidParameterException(parameter, "'" + text + "'", "at most " + MAX_LEVELS + " levels: " + allowed);
                }
            } catch (NumberFormatException e) {
                throw new InvalidParameterException(parameter, "'" + text + "'", allowed);
            }
        }
        if (values.isEmpty()) {
            throw new InvalidParameterException(parameter, "'" + text + "'", "at least one level: " + allowed);
        }
        return values;
    }

    private static double number(String text) {
        double value = Double.parseDouble(text.strip());
        if (!Double.isFinite(value)) {
            throw new NumberFormatException("not a finite number: " + text);
        }
        return value;
    }
}
