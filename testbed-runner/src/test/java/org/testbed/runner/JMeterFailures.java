package org.testbed.runner;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The failures a JMeter step's raw file lists ({@code failure xN: OPERATION: message (status S)}),
 * told apart by whose they are: an answer the checks refused (a 5xx, another status than expected,
 * a wrong body) is the server's; a failure with no answer at all ({@code Non HTTP response code}: a
 * connect or read that failed or timed out) is what a busy machine can cost. Requests JMeter cut at
 * the window's end are not among them: they are unfinished.
 */
final class JMeterFailures {
    /** A failure that got an HTTP status: the server answered it. */
    private static final Pattern ANSWERED = Pattern.compile("\\(status \\d{3}\\)\\s*$");

    private JMeterFailures() {
    }

    /** The failure lines of answers the server gave wrong. */
    static List<String> answered(String raw) {
        return raw.lines().filter(l -> l.startsWith("failure x")).filter(l -> ANSWERED.matcher(l).find()).toList();
    }
}
