package org.testbed.runfolder.gate;

import java.util.Objects;

/**
 * One check of a gate, one figure of one step: a test case of the JUnit report.
 *
 * @param classname what a JUnit viewer groups the cases by: the variant
 * @param name the step and what was checked, e.g. {@code vertx mix c=64 rps} or {@code vertx mix c=64 p99<=5ms}
 * @param outcome passed, failed or inconclusive
 * @param message one line: why it failed or was inconclusive, or what it measured when it passed
 * @param output more lines for the reader (the caveats of the step's samples); empty when there is nothing more
 */
public record GateCase(String classname, String name, Outcome outcome, String message, String output) {
    public GateCase {
        Objects.requireNonNull(outcome, "outcome");
        classname = classname == null ? "" : classname;
        name = name == null ? "" : name;
        message = message == null ? "" : message;
        output = output == null ? "" : output;
    }
}
