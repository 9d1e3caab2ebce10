package org.testbed.runner.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one fuzzing run said, read line by line from the Maven build that ran it: libFuzzer's closing
 * {@code Done N runs in S second(s)}, each {@code Test unit written to PATH} (a crash, a timeout or an
 * out-of-memory input, written where JUnit replays it), and the finding itself as Surefire reports the
 * test's failure ({@code » FuzzTestFinding java.lang.X: ...}) or libFuzzer its own
 * ({@code ERROR: libFuzzer: timeout after 20 seconds}).
 */
public final class FuzzOutput {
    private static final Pattern DONE = Pattern.compile("^Done (\\d+) runs in (\\d+) second");
    private static final Pattern WRITTEN = Pattern.compile("Test unit written to (\\S+)");
    private static final Pattern FINDING = Pattern.compile("» FuzzTestFinding (.+)$");
    private static final Pattern LIBFUZZER_ERROR = Pattern.compile("ERROR: libFuzzer: (.+)$");
    private static final Pattern TESTS = Pattern.compile("^\\[(?:INFO|ERROR|WARNING)] Tests run: (\\d+), Failures: (\\d+), Errors: (\\d+)");

    private long executions = -1;
    private long seconds = -1;
    private final List<String> inputs = new ArrayList<>();
    private final List<String> findings = new ArrayList<>();
    private long testsFailed;
    private boolean buildFailed;
    private boolean buildSucceeded;

    /** Reads one line of the build's output. */
    public void line(String line) {
        Matcher m = DONE.matcher(line);
        if (m.find()) {
            executions = Long.parseLong(m.group(1));
            seconds = Long.parseLong(m.group(2));
            return;
        }
        m = WRITTEN.matcher(line);
        if (m.find()) {
            inputs.add(m.group(1));
            return;
        }
        m = FINDING.matcher(line);
        if (m.find() && line.startsWith("[ERROR]")) {
            findings.add(m.group(1).strip());
            return;
        }
        m = LIBFUZZER_ERROR.matcher(line);
        if (m.find()) {
            findings.add("libFuzzer: " + m.group(1).strip());
            return;
        }
        m = TESTS.matcher(line);
        if (m.find() && !line.contains(" -- in ")) { // Surefire's total for the module, not a class's line
            testsFailed = Math.max(testsFailed, Long.parseLong(m.group(2)) + Long.parseLong(m.group(3)));
            return;
        }
        if (line.startsWith("[INFO] BUILD SUCCESS")) {
            buildSucceeded = true;
        } else if (line.startsWith("[INFO] BUILD FAILURE")) {
            buildFailed = true;
        }
    }

    /** How many inputs libFuzzer ran, when it said (it says so at its end, also after a finding). */
    public Optional<Long> executions() {
        return executions < 0 ? Optional.empty() : Optional.of(executions);
    }

    public Optional<Long> seconds() {
        return seconds < 0 ? Optional.empty() : Optional.of(seconds);
    }

    /** The inputs libFuzzer wrote: {@code crash-*}, {@code timeout-*}, {@code oom-*}, each a finding. */
    public List<String> inputsWritten() {
        return List.copyOf(inputs);
    }

    /** What was found, as reported: the exception of a crash, or libFuzzer's own error. */
    public List<String> findings() {
        return List.copyOf(findings);
    }

    /** The crashes: the inputs written, or the findings reported when none was (a regression input that fails). */
    public int crashes() {
        return Math.max(inputs.size(), findings.size());
    }

    /** Whether the fuzzing ran at all: libFuzzer said how many inputs it ran. */
    public boolean fuzzed() {
        return executions >= 0;
    }

    public boolean testsFailed() {
        return testsFailed > 0;
    }

    public boolean buildFailed() {
        return buildFailed || !buildSucceeded;
    }
}
