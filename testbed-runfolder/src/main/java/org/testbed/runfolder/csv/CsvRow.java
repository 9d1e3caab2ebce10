package org.testbed.runfolder.csv;

import java.util.Map;

/**
 * One line of a table read back, by column: the values as the file wrote them, read through the
 * {@link Column} that wrote them. A column the file does not have (a file from an older runner)
 * reads as empty: text "", an unknown number NaN, a count 0, a flag false.
 */
public final class CsvRow {
    /** How a number that could not be measured may be written besides an empty field. */
    private static final String NOT_AVAILABLE = "n/a";

    private final Map<String, String> values;
    private final String origin;

    public CsvRow(Map<String, String> values, String origin) {
        this.values = values;
        this.origin = origin;
    }

    public String text(Column<?> column) {
        String v = values.get(column.name());
        return v == null ? "" : v;
    }

    /** A decimal; NaN when empty or not available. */
    public double decimal(Column<?> column) {
        String v = text(column);
        return v.isBlank() || v.equals(NOT_AVAILABLE) ? Double.NaN : parse(column, v);
    }

    /** A decimal; {@code absent} when empty (a column an older runner did not write). */
    public double decimal(Column<?> column, double absent) {
        return has(column) ? decimal(column) : absent;
    }

    /** A whole number (a count, a level); 0 when empty. */
    public long count(Column<?> column) {
        String v = text(column);
        return v.isBlank() ? 0 : (long) parse(column, v);
    }

    public int integer(Column<?> column) {
        return (int) count(column);
    }

    public boolean flag(Column<?> column) {
        return Boolean.parseBoolean(text(column));
    }

    /** A flag; {@code absent} when empty. */
    public boolean flag(Column<?> column, boolean absent) {
        return has(column) ? flag(column) : absent;
    }

    /** Whether the file had this column at all (an older file may not). */
    public boolean has(Column<?> column) {
        return values.containsKey(column.name()) && !values.get(column.name()).isBlank();
    }

    private double parse(Column<?> column, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(origin + ": column " + column.name() + " holds '" + v + "', not a number");
        }
    }
}
