package org.testbed.runfolder.gate;

/**
 * What a gate says about one figure of one step. Inconclusive is never a pass: a JUnit report
 * shows it as skipped, with the reason, and the console says {@code INCONCLUSIVE}.
 */
public enum Outcome {
    /** The figure is on the right side of the gate, beyond its noise. */
    PASSED("PASS"),
    /** The figure is on the wrong side of the gate, beyond its noise. */
    FAILED("FAIL"),
    /** The noise does not let one say: an interval across the bound, or no noise estimate at all. */
    INCONCLUSIVE("INCONCLUSIVE");

    private final String word;

    Outcome(String word) {
        this.word = word;
    }

    /** {@code PASS}, {@code FAIL} or {@code INCONCLUSIVE}, as the console prints it. */
    public String word() {
        return word;
    }
}
