package org.testbed.runner.host;

import org.testbed.runfolder.counters.CounterReading;

/** {@code perf stat} counting the server's events over one step's window, wherever the server runs. */
@FunctionalInterface
public interface EventCounting {

    /** Stops counting and returns what was counted; never throws for what perf could not do. */
    CounterReading stop() throws InterruptedException;
}
