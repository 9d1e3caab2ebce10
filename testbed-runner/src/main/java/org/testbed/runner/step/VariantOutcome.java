package org.testbed.runner.step;

/**
 * What one start of a variant spent of its plan: the warm-ups and step windows it ran, which the
 * ETA subtracts from the time it took to find the overhead of starting and stopping. (Its samples
 * are recorded as they are measured.)
 */
record VariantOutcome(long plannedMillis) {
}
