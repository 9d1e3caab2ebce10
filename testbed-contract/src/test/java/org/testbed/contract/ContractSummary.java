package org.testbed.contract;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Counts the contract's outcomes per variant and prints one line per variant, e.g.
 * {@code contract suite: spring-tomcat 26 passed, 0 failed}, also appended to
 * {@code target/contract-summary.txt}: Surefire's own reports do not name class-template runs.
 * A suite may add notes to the current variant's line ({@link #note}) and say why it skipped
 * ({@link #skipped}), so that a skip is read in the summary, not only in a report file.
 */
final class ContractSummary implements TestWatcher {
    static final SummaryFile FILE = new SummaryFile(Path.of("target", "contract-summary.txt"));

    private static String variant;
    private static int passed;
    private static int failed;
    private static int skipped;
    private static final List<String> NOTES = new ArrayList<>();

    static synchronized void begin(String variantName) {
        variant = variantName;
        passed = 0;
        failed = 0;
        skipped = 0;
        NOTES.clear();
    }

    /** A fact about the current variant for its line, e.g. {@code started in 14 s}. */
    static synchronized void note(String fact) {
        NOTES.add(fact);
    }

    static synchronized void end(String suite) {
        String facts = NOTES.isEmpty() ? "" : String.join(", ", NOTES) + ", ";
        write(suite + ": " + variant + " " + facts + passed + " passed, " + failed + " failed"
                + (skipped > 0 ? ", " + skipped + " skipped" : ""));
    }

    /** A line of its own for a check that is not one variant's suite, e.g. the compose file brought up. */
    static synchronized void line(String suite, String text) {
        write(suite + ": " + text);
    }

    /** A suite that did not run at all here, and why. */
    static synchronized void skipped(String suite, String reason) {
        write(suite + ": skipped: " + reason);
    }

    private static void write(String line) {
        System.out.println(line);
        FILE.append(line);
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
        synchronized (ContractSummary.class) {
            passed++;
        }
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        synchronized (ContractSummary.class) {
            failed++;
        }
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        synchronized (ContractSummary.class) {
            skipped++;
        }
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        synchronized (ContractSummary.class) {
            skipped++;
        }
    }
}
