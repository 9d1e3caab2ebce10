package org.testbed.runner.step;

import org.testbed.runfolder.csv.ResultRow;

/**
 * One JVM's share of a run: fork {@code fork} of {@code variant} under {@code conditions} (their
 * label, as results.csv names them). What {@code run --resume} keeps or measures again whole: a
 * session cut half-way has windows that an uncut one would not (the JVM was still warming), so
 * they are dropped, never mixed with the re-measured ones.
 */
record SessionKey(int fork, String variant, String conditions) {

    /** The session a window was measured in. */
    static SessionKey of(ResultRow.StepKey key, int fork) {
        return new SessionKey(fork, key.variant(), key.conditions().label());
    }
}
