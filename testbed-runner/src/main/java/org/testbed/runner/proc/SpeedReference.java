package org.testbed.runner.proc;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The validated loop ({@link MachineSpeed}) timed on every CPU of a run for as long as the run
 * lasts, one thread per CPU pinned to it, every {@code period}: the machine's speed beside every
 * window, on the server's CPUs and on the load's, read from the probes that fall inside it
 * ({@link #speedOver}).
 *
 * <p>Threads, not a process per CPU: a thread learns its kernel thread id from
 * {@code /proc/thread-self} and is pinned alone ({@code taskset -p -c CPU TID}), its CPU time read
 * through the JVM with nothing to start, parse or clean up; a thread per CPU costs the run one JIT
 * compilation of the loop, shared. The threads are daemons and {@link #close} stops them. The loop
 * is held to its validated length ({@link MachineSpeed#LOOP}) by a calibration when it starts.
 *
 * <p>A probe's speed is the CPU's full speed over its time, full speed being the fastest tenth of
 * that CPU's probes so far in the run ({@link MachineSpeed#fullSpeedOf}), a burst of
 * {@value #CALIBRATION_PROBES} back-to-back probes at the start included: a calibration alone would
 * take a start that fell in a slow spell (they last up to about 20 s) for full speed, and a quantile
 * of the whole run keeps improving as it lasts. Each CPU has its own, so that CPUs of two speeds
 * (big and little cores) both read 1 at their best.
 */
public final class SpeedReference implements AutoCloseable {
    /** Before the loop is compiled it measures the JIT, not the machine: the calibration's warm-up, left out. */
    static final Duration JIT_WARM_UP = Duration.ofMillis(500);
    /** Each thread's first probes, on its own CPU once pinned: left out. */
    static final int WARM_UP_PROBES = 3;
    /** Back-to-back probes after the warm-up: each CPU's first full-speed reference. */
    static final int CALIBRATION_PROBES = 10;

    /**
     * One probe.
     *
     * @param cpu the CPU it ran on
     * @param startNanos when it started ({@link System#nanoTime})
     * @param endNanos when it ended
     * @param cpuNanos the CPU time it took
     */
    public record Reading(int cpu, long startNanos, long endNanos, long cpuNanos) {
        /** Whether it ran wholly within {@code [from, to]}. */
        public boolean within(long from, long to) {
            return startNanos >= from && endNanos <= to;
        }
    }

    /** Pins one thread (its kernel id) to one CPU. */
    @FunctionalInterface
    public interface Pinner {
        void pin(long tid, int cpu) throws IOException;
    }

    private final Duration period;
    private final List<Worker> workers = new ArrayList<>();
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    /** The CPU time the threads had used once calibrated: what starting cost. */
    private long startCpuNanos;

    private SpeedReference(Duration period) {
        this.period = period;
    }

    /**
     * Calibrates the loop to its length on this machine ({@link MachineSpeed#calibrated}, on the calling
     * thread), starts a thread on each of {@code cpus}, pinned by {@code pinner}, and returns once each is
     * pinned and has taken its {@value #CALIBRATION_PROBES} back-to-back probes.
     *
     * @throws IOException when a thread could not be pinned (the others are stopped)
     */
    public static SpeedReference start(List<Integer> cpus, Duration period, Pinner pinner)
            throws IOException, InterruptedException {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("no CPUs to time");
        }
        SpeedReference reference = new SpeedReference(period);
        int units = MachineSpeed.calibrated(JIT_WARM_UP).units();
        CountDownLatch ready = new CountDownLatch(cpus.size());
        for (int cpu : cpus) {
            Worker w = new Worker(cpu, units, period, pinner, ready);
            reference.workers.add(w);
            w.thread.start();
        }
        ready.await();
        for (Worker w : reference.workers) {
            if (w.failure != null) {
                reference.close();
                throw new IOException("the machine speed reference on CPU " + w.cpu + " could not be pinned: "
                        + w.failure.getMessage(), w.failure);
            }
        }
        reference.startCpuNanos = reference.cpuNanos();
        return reference;
    }

    /** The CPUs it times, in the order given. */
    public List<Integer> cpus() {
        return workers.stream().map(w -> w.cpu).toList();
    }

    /** How often each CPU is probed. */
    public Duration period() {
        return period;
    }

    /** The kernel thread id of each thread, in the order of {@link #cpus()}. */
    public List<Long> tids() {
        return workers.stream().map(w -> w.tid).toList();
    }

    /** The threads, in the order of {@link #cpus()} (alive until {@link #close}). */
    public List<Thread> threads() {
        return workers.stream().map(w -> w.thread).toList();
    }

    /**
     * Every CPU's next probe {@code after} from now, unless one is due sooner; the period goes on
     * from there: a window opening now gets a probe even when it is shorter than the period.
     */
    public void nudge(Duration after) {
        long at = System.nanoTime() + after.toNanos();
        for (Worker w : workers) {
            w.nudgeAt = Math.min(w.nudgeAt, at);
            LockSupport.unpark(w.thread);
        }
    }

    /** The probes of {@code cpu} so far, calibration included, in the order taken. */
    public List<Reading> readings(int cpu) {
        return worker(cpu).readings();
    }

    /** The fastest tenth of {@code cpu}'s probes so far: its full speed, in nanoseconds of CPU. */
    public double fullSpeedNanos(int cpu) {
        List<Reading> all = readings(cpu);
        return MachineSpeed.fullSpeedOf(all.stream().mapToLong(Reading::cpuNanos).toArray());
    }

    /** The probes of {@code cpus} that ran wholly within {@code [from, to]} ({@link System#nanoTime}). */
    public List<Reading> within(Collection<Integer> cpus, long from, long to) {
        List<Reading> inside = new ArrayList<>();
        for (Worker w : workers) {
            if (cpus.contains(w.cpu)) {
                w.readings().stream().filter(r -> r.within(from, to)).forEach(inside::add);
            }
        }
        return inside;
    }

    /** A probe's speed: its CPU's full speed so far over its time. */
    public double speedOf(Reading r) {
        return fullSpeedNanos(r.cpu()) / r.cpuNanos();
    }

    /**
     * The speed of {@code cpus} over {@code [from, to]}: the mean of their probes' speeds inside it,
     * the estimate of the share of full speed they ran at through it; empty when no probe fell inside.
     */
    public OptionalDouble speedOver(Collection<Integer> cpus, long from, long to) {
        return within(cpus, from, to).stream().mapToDouble(this::speedOf).average();
    }

    /** The CPU time its threads have used so far, probes, sleeping and waking together, in nanoseconds. */
    public long cpuNanos() {
        long sum = 0;
        for (Worker w : workers) {
            long t = mx.getThreadCpuTime(w.thread.getId());
            sum += t >= 0 ? t : w.lastCpuNanos;
        }
        return sum;
    }

    /** The CPU time its threads used to start: each one's warm-up and calibration probes. */
    public long startCpuNanos() {
        return startCpuNanos;
    }

    /** The length of each probe's loop at full speed, as calibrated: {@link MachineSpeed#LOOP}, about. */
    public int units() {
        return workers.get(0).units;
    }

    /** Stops every thread and waits for it to end. */
    @Override
    public void close() throws InterruptedException {
        for (Worker w : workers) {
            w.stop = true;
            LockSupport.unpark(w.thread);
        }
        for (Worker w : workers) {
            w.thread.join();
        }
    }

    private Worker worker(int cpu) {
        return workers.stream().filter(w -> w.cpu == cpu).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("CPU " + cpu + " is not timed"));
    }

    /** The kernel's id of the calling thread: {@code /proc/thread-self} links to {@code PID/task/TID}. */
    static long nativeTid() throws IOException {
        Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
        return Long.parseLong(link.getFileName().toString());
    }

    /** One CPU's thread: pinned, warmed up, calibrated, then one probe every period until stopped. */
    private static final class Worker implements Runnable {
        final int cpu;
        final int units;
        final Thread thread;
        private final Duration period;
        private final Pinner pinner;
        private final CountDownLatch ready;
        private final List<Reading> readings = new ArrayList<>();
        /** When the next probe of the period is due ({@link System#nanoTime}). */
        volatile long nextAt = Long.MAX_VALUE;
        /** When a probe was asked for ({@link #nudge}); kept apart so that a probe under way cannot lose it. */
        volatile long nudgeAt = Long.MAX_VALUE;
        volatile boolean stop;
        volatile long tid = -1;
        volatile long lastCpuNanos;
        volatile Exception failure;

        Worker(int cpu, int units, Duration period, Pinner pinner, CountDownLatch ready) {
            this.cpu = cpu;
            this.units = units;
            this.period = period;
            this.pinner = pinner;
            this.ready = ready;
            this.thread = new Thread(this, "machine-speed-cpu" + cpu);
            this.thread.setDaemon(true);
        }

        synchronized List<Reading> readings() {
            return List.copyOf(readings);
        }

        private synchronized void add(Reading r) {
            readings.add(r);
        }

        @Override
        public void run() {
            MachineSpeed loop;
            try {
                tid = nativeTid();
                pinner.pin(tid, cpu);
                loop = new MachineSpeed(units);
                for (int i = 0; i < WARM_UP_PROBES && !stop; i++) {
                    loop.probeNanos();
                }
                for (int i = 0; i < CALIBRATION_PROBES && !stop; i++) {
                    probe(loop);
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
                return;
            } finally {
                ready.countDown();
            }
            nextAt = System.nanoTime() + period.toNanos();
            while (!stop) {
                long wait = Math.min(nextAt, nudgeAt) - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                    continue;
                }
                long started = System.nanoTime();
                probe(loop);
                if (nudgeAt <= started) {
                    nudgeAt = Long.MAX_VALUE;
                }
                // The period goes on from this probe, asked for or due.
                nextAt = started + period.toNanos();
            }
            lastCpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        }

        private void probe(MachineSpeed loop) {
            long start = System.nanoTime();
            long nanos = loop.probeNanos();
            add(new Reading(cpu, start, System.nanoTime(), nanos));
        }
    }
}
