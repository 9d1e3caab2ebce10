package org.testbed.runfolder;

import java.util.ArrayList;
import java.util.List;

/**
 * What a step ran under besides its level: HTTPS ({@code --tls}), gzip ({@code --gzip}), and the
 * servers' metrics ({@code --metrics}: recorded, and scraped once a second). Two steps under different
 * conditions measure different work, so they are never compared as the same step.
 *
 * <p>Written as one CSV field, {@code conditions}: {@code plain} when none is on, else the ones on
 * joined by {@code +} in the order {@code tls}, {@code gzip}, {@code metrics} (e.g. {@code tls+gzip}).
 * A file from before the column existed reads as {@code plain}, which is what it measured.
 */
public record Conditions(boolean tls, boolean gzip, boolean metrics) {
    public static final Conditions PLAIN = new Conditions(false, false, false);

    /** The CSV field. */
    public String label() {
        List<String> on = new ArrayList<>();
        if (tls) {
            on.add("tls");
        }
        if (gzip) {
            on.add("gzip");
        }
        if (metrics) {
            on.add("metrics");
        }
        return on.isEmpty() ? "plain" : String.join("+", on);
    }

    /** The CSV field read back; empty or absent is {@link #PLAIN}. */
    public static Conditions parse(String field) {
        if (field == null || field.isBlank() || field.strip().equals("plain")) {
            return PLAIN;
        }
        boolean tls = false;
        boolean gzip = false;
        boolean metrics = false;
        for (String part : field.strip().split("\\+")) {
            switch (part) {
                case "tls" -> tls = true;
                case "gzip" -> gzip = true;
                case "metrics" -> metrics = true;
                default -> throw new IllegalArgumentException("unknown condition '" + part + "' in '" + field
                        + "'; conditions are plain, or tls, gzip and metrics joined by +");
            }
        }
        return new Conditions(tls, gzip, metrics);
    }

    @Override
    public String toString() {
        return label();
    }
}
