package org.testbed.runner.fault;

/**
 * When a fault was in effect, in seconds from the window's start, as it happened (not as planned):
 * from the moment it took effect to the moment the store was back.
 *
 * @param fromS when it was set off
 * @param toS when it ended
 */
public record FaultTimes(double fromS, double toS) {
}
