package org.testbed.runfolder.csv;

import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.testbed.runfolder.figure.Figure;

/**
 * One column of a run folder's table, defined once: its name, what kind of value it holds, and how
 * a record's value is written. A record is read back through the same object ({@link CsvRow}), and
 * the report's data takes each column's key and JSON type from here, so a column's name is typed in
 * one place only and a new column reaches the file, the reader and the report together.
 *
 * @param <T> the record a row of the table holds
 */
public final class Column<T> {
    /** What a column holds, which says how the report's data carries it. */
    public enum Kind {
        /** free text; a JSON string */
        TEXT,
        /** a number, empty when not known; a JSON number or null */
        NUMBER,
        /** {@code true} or {@code false}; a JSON boolean */
        FLAG
    }

    private final String name;
    private final Kind kind;
    private final Function<T, String> format;

    private Column(String name, Kind kind, Function<T, String> format) {
        this.name = name;
        this.kind = kind;
        this.format = format;
    }

    public static <T> Column<T> text(String name, Function<T, String> value) {
        return new Column<>(name, Kind.TEXT, r -> {
            String v = value.apply(r);
            return v == null ? "" : v;
        });
    }

    /** A decimal written with {@code decimals} decimals; NaN (a figure not known) is an empty field. */
    public static <T> Column<T> decimal(String name, int decimals, ToDoubleFunction<T> value) {
        return new Column<>(name, Kind.NUMBER, r -> decimal(value.applyAsDouble(r), decimals));
    }

    /**
     * A figure's column, written in the digits its declaration gives ({@link Figure#format}): a
     * figure's digits are typed once, in {@link Figure}, whichever table holds it.
     */
    public static <T> Column<T> figure(String name, Figure figure, ToDoubleFunction<T> value) {
        return new Column<>(name, Kind.NUMBER, r -> figure.format(value.applyAsDouble(r)));
    }

    /** A number in a format of its own (which must write a number, or what {@link CsvRow#decimal} reads as unknown). */
    public static <T> Column<T> number(String name, Function<T, String> formatted) {
        return new Column<>(name, Kind.NUMBER, formatted);
    }

    public static <T> Column<T> count(String name, ToLongFunction<T> value) {
        return new Column<>(name, Kind.NUMBER, r -> Long.toString(value.applyAsLong(r)));
    }

    public static <T> Column<T> flag(String name, Predicate<T> value) {
        return new Column<>(name, Kind.FLAG, r -> Boolean.toString(value.test(r)));
    }

    /**
     * This column for a record that holds a {@code T} as one of its parts: the same name, kind and
     * format, so a group of columns is defined once and shared by the tables that carry it.
     */
    public <R> Column<R> of(Function<R, T> part) {
        return new Column<>(name, kind, r -> format.apply(part.apply(r)));
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** The field {@code record} writes in this column. */
    public String format(T record) {
        return format.apply(record);
    }

    /** {@code value} with {@code decimals} decimals; NaN or infinite (a figure not known) is an empty field. */
    public static String decimal(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    @Override
    public String toString() {
        return name;
    }
}
