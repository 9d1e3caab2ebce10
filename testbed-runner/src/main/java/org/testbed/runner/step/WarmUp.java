package org.testbed.runner.step;

/**
 * The warm-up a scenario's steps had.
 *
 * @param seconds seconds of unmeasured load
 * @param settled whether the server reached its steady state ({@link WarmUpWatcher}) before the
 *                {@code --warmup} limit; false means the steps may have measured a JVM still compiling
 */
record WarmUp(double seconds, boolean settled) {
}
