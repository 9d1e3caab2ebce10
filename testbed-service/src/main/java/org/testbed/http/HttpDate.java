package org.testbed.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header every answer carries (TechEmpower's rules ask for it), for the variants
 * whose server sets none (Vert.x, Reactor Netty; Tomcat and Jetty set their own): formatted once a
 * second rather than per response.
 */
public final class HttpDate {
    /** IMF-fixdate (RFC 9110): always two-digit days, unlike DateTimeFormatter.RFC_1123_DATE_TIME. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private record Formatted(long second, String text) {
    }

    private static volatile Formatted current = new Formatted(-1, "");

    private HttpDate() {
    }

    /** Now, to the second. */
    public static String now() {
        long second = System.currentTimeMillis() / 1000;
        Formatted formatted = current;
        if (formatted.second() != second) {
            formatted = new Formatted(second, IMF_FIXDATE.format(Instant.ofEpochSecond(second)));
            current = formatted;
        }
        return formatted.text();
    }
}
