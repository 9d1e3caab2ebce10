package org.testbed.runfolder.environment;

/**
 * HTTP round trips from the load machine to one variant on the server's machine, in ms.
 *
 * @param method how they were taken
 * @param minMs the fastest
 * @param medianMs the median
 * @param maxMs the slowest
 */
@EnvironmentSection
public record RoundTrips(String method, double minMs, double medianMs, double maxMs) {
}
