package org.testbed.scenario;

import java.time.Duration;
import java.util.SplittableRandom;

/** A pause drawn uniformly from [min, max] after each request, as a JMeter Uniform Random Timer does. */
public record ThinkTime(Duration min, Duration max) {
    public static final ThinkTime NONE = new ThinkTime(Duration.ZERO, Duration.ZERO);

    public ThinkTime {
        if (min.isNegative()) {
            throw new InvalidParameterException("min", LoadShape.seconds(min), "0 s or longer");
        }
        if (max.compareTo(min) < 0) {
            throw new InvalidParameterException("max", LoadShape.seconds(max), "at least {min}", "min", LoadShape.seconds(min));
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
