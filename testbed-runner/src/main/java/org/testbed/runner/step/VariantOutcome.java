package org.testbed.runner.step;

import java.util.List;

/**
 * What one start of a variant produced: a sample per step measured, and the planned time (warm-ups
 * and step windows) it spent, which the ETA subtracts from the overhead of starting and stopping.
 */
record VariantOutcome(List<Sample> samples, long plannedMillis) {
}
