package org.testbed.helidon;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code TESTBED_IDLE_TIMEOUT_MS} for helidon-se: cuts a connection that has waited for its next
 * bytes longer than the timeout, whether between requests or in the middle of a request's headers
 * or body. Helidon's own idle check measures from the last request's start and only closes a
 * connection waiting for a request line; its socket read timeout does not apply to the server's
 * channel reads. So each connection's reads go through a {@link WatchedInput}, and one platform
 * thread looks at them a few times per timeout.
 */
final class IdleCutter implements AutoCloseable {
    private static final Duration MIN_PERIOD = Duration.ofMillis(50);
    private static final Duration MAX_PERIOD = Duration.ofSeconds(1);

    private final long timeoutNanos;
    private final Set<WatchedInput> watched = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "testbed-idle-cut");
        thread.setDaemon(true);
        return thread;
    });

    IdleCutter(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        long period = Math.max(MIN_PERIOD.toNanos(), Math.min(MAX_PERIOD.toNanos(), timeoutNanos / 8));
        timer.scheduleAtFixedRate(this::sweep, period, period, TimeUnit.NANOSECONDS);
    }

    void watch(WatchedInput input) {
        watched.add(input);
    }

    void forget(WatchedInput input) {
        watched.remove(input);
    }

    private void sweep() {
        long now = System.nanoTime();
        for (WatchedInput input : watched) {
            input.cutIfWaitingLongerThan(timeoutNanos, now);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
