package org.testbed.contract;

import java.nio.file.Path;

/**
 * The robustness suites' figures per variant (fault cases passed, hostile inputs tried, lost
 * updates, connections held, RSS at 1100 connections ...), one line per figure in
 * {@code target/robustness-summary.tsv}: {@code variant<TAB>figure<TAB>value}. {@code ./testbed test}
 * prints them as one table, variants down, figures across. Each line is also printed, so a run in
 * an IDE shows them too.
 */
final class RobustnessSummary {
    static final SummaryFile FILE = new SummaryFile(Path.of("target", "robustness-summary.tsv"));

    private RobustnessSummary() {
    }

    static synchronized void record(String variant, String figure, Object value) {
        String line = variant + "\t" + figure + "\t" + value;
        System.out.println("robustness: " + line.replace('\t', ' '));
        FILE.append(line);
    }
}
