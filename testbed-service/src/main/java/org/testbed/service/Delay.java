package org.testbed.service;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.testbed.http.Response;

/**
 * {@code GET /testbed/delay?ms=N}: N ms (0..10000) of simulated I/O, the sync-vs-async experiment.
 * Sync variants sleep on their worker thread, which is the point: Little's law then bounds them at
 * threads / delay. Async variants schedule the answer on {@link #scheduler()}, a single shared timer
 * thread, so no thread at all is held while a request waits (never a thread per request).
 */
public final class Delay {
    public static final long MAX_MILLIS = 10_000;

    private static final ScheduledThreadPoolExecutor SCHEDULER = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "testbed-delay");
        thread.setDaemon(true);
        return thread;
    });

    private final long millis;
    private final Response rejection;

    private Delay(long millis, Response rejection) {
        this.millis = millis;
        this.rejection = rejection;
    }

    /** Parses the raw {@code ms} query parameter (null when absent). */
    public static Delay parse(String ms) {
        if (ms == null || ms.isEmpty()) {
            return rejected("The query parameter ms is required: /testbed/delay?ms=N with 0 <= N <= " + MAX_MILLIS + ".");
        }
        long value;
        try {
            value = ms.length() > 6 ? -1 : Long.parseLong(ms);
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 0 || value > MAX_MILLIS || !ms.chars().allMatch(Character::isDigit)) {
            return rejected("ms must be a whole number of milliseconds from 0 to " + MAX_MILLIS + ".");
        }
        return new Delay(value, null);
    }

    private static Delay rejected(String detail) {
        return new Delay(0, Response.problem(400, detail));
    }

    /** The 400 answer for a bad {@code ms}, or null when the delay is valid. */
    public Response rejection() {
        return rejection;
    }

    public long millis() {
        return millis;
    }

    /** Sync variants: holds the calling thread for the delay, then gives the answer. */
    public Response sleep() {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Response.problem(503, "The server is shutting down.");
        }
        return Responses.delayDone();
    }

    /** Async variants: runs {@code answer} on the shared timer thread once the delay is over. */
    public void schedule(Runnable answer) {
        SCHEDULER.schedule(answer, millis, TimeUnit.MILLISECONDS);
    }

    /** The shared timer, for async variants that build their own waits on it. */
    public static ScheduledExecutorService scheduler() {
        return SCHEDULER;
    }
}
