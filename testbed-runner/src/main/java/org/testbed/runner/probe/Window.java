package org.testbed.runner.probe;

import java.time.Instant;
import org.testbed.driver.LoadResult;

/**
 * A step's measured window as its probes are told of it at the step's end.
 *
 * @param start when the load started, on this machine's clock
 * @param end when it stopped
 * @param result what the driver measured in it
 */
public record Window(Instant start, Instant end, LoadResult result) {
}
