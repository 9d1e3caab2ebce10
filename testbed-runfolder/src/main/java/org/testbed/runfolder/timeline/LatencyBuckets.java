package org.testbed.runfolder.timeline;

/**
 * The latency rows of the report's heat map: log-scaled buckets, five per decade, so that 100 µs
 * and 1 s get the same share of the picture and a stall stands out as a band far above the rest.
 * Bucket 0 holds everything under 10 µs; bucket {@code i > 0} holds [10^(1 + (i−1)/5), 10^(1 + i/5)) µs;
 * the last one is open above (an hour is the driver's highest latency, far below its top edge).
 */
public final class LatencyBuckets {
    public static final int PER_DECADE = 5;
    /** The lower edge of bucket 1, µs. */
    private static final double FIRST_EDGE_MICROS = 10;
    /** Up to 10^10 µs (almost three hours): above the driver's highest latency. */
    public static final int COUNT = 1 + 9 * PER_DECADE;

    private LatencyBuckets() {
    }

    /** The bucket of a latency of {@code micros}. */
    public static int of(double micros) {
        if (micros < FIRST_EDGE_MICROS) {
            return 0;
        }
        // Math.log10 is exact at powers of ten, so a value on a decade's edge opens its bucket.
        int i = 1 + (int) Math.floor(PER_DECADE * Math.log10(micros / FIRST_EDGE_MICROS));
        return Math.min(i, COUNT - 1);
    }

    /** The lower edge of bucket {@code i}, milliseconds (0 for bucket 0). */
    public static double lowerEdgeMs(int i) {
        return i == 0 ? 0 : FIRST_EDGE_MICROS * Math.pow(10, (i - 1) / (double) PER_DECADE) / 1000;
    }
}
