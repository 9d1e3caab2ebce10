package org.testbed.runner.problem;

/**
 * One thing that went wrong in a run without stopping it: a variant skipped, a step not measured, a
 * flame graph lost, the server's machine gone. Its text is what the console and environment.json say.
 *
 * @param text one line or more, the first of which the console shows
 * @param everyStep whether it holds for every step of a variant (a JVM that cannot be profiled at all),
 *                  so that the run reports it once rather than once per step
 */
public record Problem(String text, boolean everyStep) {

    /** A problem of one moment of the run. */
    public static Problem of(String text) {
        return new Problem(text, false);
    }

    /** A problem that every step of a variant would meet again: reported once. */
    public static Problem forEveryStep(String text) {
        return new Problem(text, true);
    }

    /** Its first line, for the console's {@code !!} line. */
    public String firstLine() {
        return text.lines().findFirst().orElse(text);
    }
}
