package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.testbed.runfolder.timeline.GcReading;

/**
 * Reads a local JVM's GC counters from its hsperfdata file every period through a step's window, so
 * that the report can mark the seconds in which it collected. A read is a copy of a memory-mapped
 * file of some 32 KB, microseconds, on a daemon thread of the runner: nothing the server notices.
 * A read that fails (the JVM exited) ends the readings; those taken stay.
 */
public final class GcSampler implements AutoCloseable {
    private final Path perfData;
    private final ScheduledExecutorService timer;
    private final List<GcReading> readings = new ArrayList<>();
    private boolean failed;

    private GcSampler(Path perfData) {
        this.perfData = perfData;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gc-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    /** Reads {@code perfData} now (before returning: the window's start has its reading) and every {@code periodMillis} after. */
    public static GcSampler start(Path perfData, long periodMillis) {
        GcSampler sampler = new GcSampler(perfData);
        sampler.readOnce();
        sampler.timer.scheduleAtFixedRate(sampler::readOnce, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        return sampler;
    }

    private void readOnce() {
        synchronized (readings) {
            if (failed) {
                return;
            }
            try {
                GcCounters gc = GcCounters.fromPerfData(perfData);
                readings.add(new GcReading(System.currentTimeMillis(), gc.count(), gc.millis()));
            } catch (IOException | RuntimeException e) {
                failed = true;
            }
        }
    }

    /** Takes a last reading, stops, and returns every reading in order. */
    public List<GcReading> stop() {
        // Not shutdownNow: an interrupt would close the file channel of a read under way, and end the readings.
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        readOnce();
        synchronized (readings) {
            return List.copyOf(readings);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
