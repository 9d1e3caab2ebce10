package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Counts the contract's outcomes per variant and prints one line per variant, e.g.
 * {@code contract suite: spring-tomcat 26 passed, 0 failed}, also appended to
 * {@code target/contract-summary.txt}: Surefire's own reports do not name class-template runs.
 */
final class ContractSummary implements TestWatcher {
    static final Path FILE = Path.of("target", "contract-summary.txt");

    private static boolean fileReset;
    private static String variant;
    private static int passed;
    private static int failed;
    private static int skipped;

    static synchronized void begin(String variantName) {
        if (!fileReset) {
            try {
                Files.deleteIfExists(FILE); // one run's results, not every run's since the last clean
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            fileReset = true;
        }
        variant = variantName;
        passed = 0;
        failed = 0;
        skipped = 0;
    }

    static synchronized void end(String suite) {
        String line = suite + ": " + variant + " " + passed + " passed, " + failed + " failed"
                + (skipped > 0 ? ", " + skipped + " skipped" : "");
        System.out.println(line);
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
