package org.testbed.runner.load;

/**
 * What a driver measured in one step, client side.
 *
 * @param driver the driver's name, as the CSV's {@code driver} column shows it
 * @param requests responses received inside the measured window
 * @param errors of those, the ones that failed (wrong status or content), plus I/O errors and timeouts
 * @param seconds the measured window
 * @param latency response time; for open models measured from the intended start (no coordinated omission)
 * @param driverCpuMs CPU time the driver itself used during the window (user + system)
 * @param peakConnections most connections open at once
 * @param raw the driver's own output for the step's raw file
 */
public record LoadResult(String driver, long requests, long errors, double seconds, Latency latency,
                         double driverCpuMs, int peakConnections, String raw) {

    public double rps() {
        return seconds > 0 ? requests / seconds : 0;
    }
}
