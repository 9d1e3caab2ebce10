package org.testbed.runner.step;

import java.util.List;

/**
 * A variant could not be started under the run's conditions ({@code --tls}, {@code --gzip}). The
 * run stops: carrying on would fill the run with rows that do not measure what was asked.
 */
final class ConditionRefusedException extends IllegalStateException {

    ConditionRefusedException(String message) {
        super(message);
    }

    /**
     * The one line of a failed start worth showing: the server's complaint about its arguments
     * (the line before its {@code Try '... --help'} hint), else its {@code testbed: ...} line, else
     * the first line.
     */
    static String reason(String startFailure) {
        List<String> lines = startFailure.lines().map(String::strip).toList();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).startsWith("Try '")) {
                return lines.get(i - 1);
            }
        }
        return lines.stream().filter(l -> l.startsWith("testbed: ")).reduce((a, b) -> b)
                .map(l -> l.substring("testbed: ".length()))
                .orElse(lines.isEmpty() ? startFailure : lines.get(0));
    }
}
