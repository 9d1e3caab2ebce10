package org.testbed.scenario;

import java.time.Duration;
import java.util.SplittableRandom;

/** A pause drawn uniformly from [min, max] after each request, as a JMeter Uniform Random Timer does. */
public record ThinkTime(Duration min, Duration max) {
    public static final ThinkTime NONE = new ThinkTime(Duration.ZERO, Duration.ZERO);

    public ThinkTime {
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("think time needs 0 <= min <= max: " + min + ", " + max);
        }
    }

    public Duration next(SplittableRandom random) {
        long spread = max.toNanos() - min.toNanos();
        return spread == 0 ? min : min.plusNanos(random.nextLong(spread + 1));
    }

    public boolean isNone() {
        return max.isZero();
    }

    public Duration mean() {
        return min.plus(max).dividedBy(2);
    }
}
