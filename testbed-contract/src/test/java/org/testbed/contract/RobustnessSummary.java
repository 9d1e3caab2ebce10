package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The robustness suites' figures per variant (fault cases passed, hostile inputs tried, lost
 * updates, connections held, RSS at 1100 connections ...), one line per figure in
 * {@code target/robustness-summary.tsv}: {@code variant<TAB>figure<TAB>value}. {@code ./testbed test}
 * prints them as one table, variants down, figures across. Each line is also printed, so a run in
 * an IDE shows them too.
 */
final class RobustnessSummary {
    static final Path FILE = Path.of("target", "robustness-summary.tsv");
    private static boolean fileReset;

    private RobustnessSummary() {
    }

    static synchronized void record(String variant, String figure, Object value) {
        String line = variant + "\t" + figure + "\t" + value;
        System.out.println("robustness: " + line.replace('\t', ' '));
        try {
            Files.createDirectories(FILE.getParent());
            if (!fileReset) {
                Files.deleteIfExists(FILE); // this run's figures only
                fileReset = true;
            }
            Files.writeString(FILE, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
