package org.testbed.scenario;

import java.util.SplittableRandom;

/** Independent, reproducible random streams: one per (seed, lane), whatever the order lanes start in. */
public final class Seeds {
    private Seeds() {
    }

    /** The random stream of lane {@code lane} under base seed {@code seed}. */
    public static SplittableRandom forLane(long seed, long lane) {
        return new SplittableRandom(mix(seed ^ mix(lane + 0x632BE59BD9B4E019L)));
    }

    /** SplitMix64's finaliser: a bijection that spreads nearby inputs far apart. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
