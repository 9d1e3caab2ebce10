package org.testbed.webflux;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header every answer carries (TechEmpower's rules ask for it; Reactor Netty,
 * unlike Tomcat and Jetty, sets none), formatted once a second rather than per response.
 */
final class HttpDate {
    /** IMF-fixdate (RFC 9110): always two-digit days, unlike DateTimeFormatter.RFC_1123_DATE_TIME. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private record Formatted(long second, String text) {
    }

    private static volatile Formatted current = new Formatted(-1, "");

    private HttpDate() {
    }

    /** Now, to the second. */
    static String now() {
        long second = System.currentTimeMillis() / 1000;
        Formatted formatted = current;
        if (formatted.second() != second) {
            formatted = new Formatted(second, IMF_FIXDATE.format(Instant.ofEpochSecond(second)));
            current = formatted;
        }
        return formatted.text();
    }
}
