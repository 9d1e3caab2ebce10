package org.testbed.runfolder.csv;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.stats.MedianInterval;

/**
 * The figures a probe measured for a sample, or a step's medians of them: the figures of
 * {@link Figure.Source#PROBE}, whose columns in samples.csv and steps.csv follow from their
 * declaration ({@link #columns}), in declaration order after a table's own columns. A figure not
 * measured is NaN, an empty field.
 *
 * @param values each measured figure's value
 */
public record Measured(Map<Figure, Double> values) {
    /** Nothing measured: every figure NaN. */
    public static final Measured NONE = new Measured(Map.of());

    public Measured {
        EnumMap<Figure, Double> copy = new EnumMap<>(Figure.class);
        values.forEach((f, v) -> {
            if (f.source() != Figure.Source.PROBE) {
                throw new IllegalArgumentException(f.key() + " is not a probe's figure: its column is its record's own");
            }
            if (Double.isFinite(v)) {
                copy.put(f, v);
            }
        });
        values = Collections.unmodifiableMap(copy);
    }

    public static Measured of(Figure figure, double value) {
        return new Measured(Map.of(figure, value));
    }

    /** This and {@code other}'s figures; {@code other}'s value wins where both have one. */
    public Measured and(Measured other) {
        EnumMap<Figure, Double> all = new EnumMap<>(Figure.class);
        all.putAll(values);
        all.putAll(other.values);
        return new Measured(all);
    }

    /** The figure's value; NaN when it was not measured. */
    public double get(Figure figure) {
        return values.getOrDefault(figure, Double.NaN);
    }

    /** Whether {@code figure} was measured. */
    public boolean has(Figure figure) {
        return values.containsKey(figure);
    }

    /** Each figure's median over {@code samples}, of those that measured it: a step's figure. */
    public static Measured median(List<Measured> samples) {
        EnumMap<Figure, Double> medians = new EnumMap<>(Figure.class);
        for (Figure f : Figure.probed(Figure.Level.SAMPLE)) {
            double[] v = samples.stream().filter(s -> s.has(f)).mapToDouble(s -> s.get(f)).toArray();
            if (v.length > 0) {
                medians.put(f, MedianInterval.median(v));
            }
        }
        return new Measured(medians);
    }

    /** The columns of the probes' figures at {@code level}, for a record that holds its {@code Measured}. */
    public static <R> List<Column<R>> columns(Figure.Level level, Function<R, Measured> of) {
        return Figure.probed(level).stream()
                .map(f -> Column.<R>number(f.key(), r -> f.format(of.apply(r).get(f))))
                .toList();
    }

    /** The probes' figures at {@code level} read back from a row; a column an older file lacks is not measured. */
    public static Measured read(CsvRow row, Figure.Level level) {
        EnumMap<Figure, Double> values = new EnumMap<>(Figure.class);
        for (Figure f : Figure.probed(level)) {
            double v = row.decimal(Column.<Object>number(f.key(), r -> ""));
            if (Double.isFinite(v)) {
                values.put(f, v);
            }
        }
        return new Measured(values);
    }
}
