package org.testbed.store;

/** The outcome of a conditional write, with the new CAS when it was stored. */
public record WriteResult(Outcome outcome, long cas) {
    public enum Outcome {
        /** Written; {@link #cas()} is the new CAS. */
        STORED,
        /** add: the key already exists. */
        EXISTS,
        /** replace/cas: the key does not exist. */
        NOT_FOUND,
        /** cas: the key exists with another CAS (someone else wrote first). */
        CAS_MISMATCH
    }

    static final WriteResult EXISTS = new WriteResult(Outcome.EXISTS, 0);
    static final WriteResult NOT_FOUND = new WriteResult(Outcome.NOT_FOUND, 0);
    static final WriteResult CAS_MISMATCH = new WriteResult(Outcome.CAS_MISMATCH, 0);

    public static WriteResult stored(long cas) {
        return new WriteResult(Outcome.STORED, cas);
    }

    public boolean isStored() {
        return outcome == Outcome.STORED;
    }
}
