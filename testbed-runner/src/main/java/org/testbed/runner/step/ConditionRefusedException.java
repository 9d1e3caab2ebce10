package org.testbed.runner.step;

/**
 * A variant could not be started under the run's conditions ({@code --tls}, {@code --gzip}). The
 * run stops: carrying on would fill the run with rows that do not measure what was asked.
 */
final class ConditionRefusedException extends IllegalStateException {

    ConditionRefusedException(String message) {
        super(message);
    }

    /** The one line of a failed start worth showing: the server's own {@code testbed: ...} complaint, else the first. */
    static String reason(String startFailure) {
        return startFailure.lines().map(String::strip).filter(l -> l.startsWith("testbed: ")).reduce((a, b) -> b)
                .map(l -> l.substring("testbed: ".length()))
                .orElse(startFailure.lines().findFirst().orElse(startFailure));
    }
}
