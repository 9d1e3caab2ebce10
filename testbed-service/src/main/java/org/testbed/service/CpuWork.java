package org.testbed.service;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code TESTBED_WORK_US}: a fixed piece of pure CPU work done by every item request before it is
 * answered, on the thread that handles it (on an event loop, the event loop). It plants a change of
 * known size, so the runner's noise estimate and {@code compare} can be checked against a cost that
 * is known in advance, as the delay scenario's simulated I/O is.
 *
 * <p>The work is a chain of xorshift steps: each depends on the one before, so the JIT can neither
 * fold nor vectorise it, and it allocates nothing and touches no memory. How many steps make one
 * microsecond is measured once, at start-up ({@link #calibrated()}), in the calibrating thread's own
 * CPU time and at the fastest of several timings, i.e. at the machine's full speed; afterwards a
 * request does exactly {@code micros × steps per µs} steps and reads no clock. So N µs means N µs of
 * CPU at full speed, and the instructions per request stay fixed whatever the machine's load (a busy
 * or throttled machine takes longer for the same work, as it does for real work).
 */
public final class CpuWork {
    /** The largest work per request, 100 ms: beyond it a request would be all work and no service. */
    public static final int MAX_MICROS = 100_000;

    /** No work: {@link #run()} returns at once. */
    public static final CpuWork NONE = new CpuWork(0, 0, 0);

    /**
     * Timings of the calibration; the fastest counts. Many short ones rather than a few long ones:
     * on a shared machine (another JVM's compiler, a sibling hardware thread) a short timing is
     * more likely to find the core to itself at least once.
     */
    static final int TIMINGS = 20;
    /** Steps per timing: 2 to 3 ms on a current core, far above the thread clock's resolution. */
    private static final long STEPS_PER_TIMING = 1_000_000;
    /** Calls of 100 000 steps before timing, so that the loop runs compiled by C2 as the requests' calls will. */
    private static final int WARM_UP_CALLS = 100;
    private static final long SEED = 0x9E3779B97F4A7C15L;

    /** The machine's calibration, made by the first {@link #of} that asks for work; once per JVM. */
    private static final AtomicReference<Calibration> CALIBRATION = new AtomicReference<>();

    /** Read only when a chain ends in 0, which a xorshift chain from a non-zero seed never does: keeps the result live. */
    private static volatile long sink;

    private final int micros;
    private final long steps;
    private final double stepsPerMicro;

    private CpuWork(int micros, long steps, double stepsPerMicro) {
        this.micros = micros;
        this.steps = steps;
        this.stepsPerMicro = stepsPerMicro;
    }

    /**
     * The work of {@code micros} µs per request at this machine's calibrated speed, calibrating on
     * the first call that asks for work (and printing one line saying what it measured). 0 is
     * {@link #NONE}, with no calibration.
     *
     * @throws IllegalArgumentException when {@code micros} is outside 0..{@link #MAX_MICROS}
     */
    public static CpuWork of(int micros) {
        check(micros);
        if (micros == 0) {
            return NONE;
        }
        Calibration calibration = calibrated();
        CpuWork work = of(micros, calibration.stepsPerMicro());
        System.out.println("testbed: work " + micros + " us per item request = " + work.steps + " xorshift steps ("
                + Math.round(calibration.stepsPerMicro()) + " per us, the fastest of " + TIMINGS
                + " timings in thread CPU time; calibrated in " + calibration.tookMillis() + " ms)");
        System.out.flush();
        return work;
    }

    /** The work of {@code micros} µs at {@code stepsPerMicro} steps per µs: what {@link #of(int)} builds, for tests. */
    static CpuWork of(int micros, double stepsPerMicro) {
        check(micros);
        if (!(stepsPerMicro > 0) || Double.isInfinite(stepsPerMicro)) {
            throw new IllegalArgumentException("steps per microsecond must be a positive number, not " + stepsPerMicro);
        }
        return micros == 0 ? NONE : new CpuWork(micros, Math.max(1, Math.round(micros * stepsPerMicro)), stepsPerMicro);
    }

    private static void check(int micros) {
        if (micros < 0 || micros > MAX_MICROS) {
            throw new IllegalArgumentException("--work-us must be a whole number of microseconds from 0 to " + MAX_MICROS
                    + ", not " + micros);
        }
    }

    /** The work per request asked for, in µs at full speed; 0 when off. */
    public int micros() {
        return micros;
    }

    /** The xorshift steps each request does; 0 when off. */
    public long steps() {
        return steps;
    }

    /** Whether requests do any work. */
    public boolean on() {
        return steps > 0;
    }

    /** Does the request's work on the calling thread; nothing when off. */
    public void run() {
        if (steps > 0) {
            consume(chain(steps, SEED));
        }
    }

    /**
     * {@code steps} dependent xorshift64 steps from {@code seed} (Marsaglia's 13, 7, 17): the work
     * itself, and what the calibration times. A non-zero seed never reaches 0.
     */
    static long chain(long steps, long seed) {
        long x = seed;
        for (long i = 0; i < steps; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    private static void consume(long x) {
        if (x == 0) { // never true; the JIT cannot know that, so it must compute x
            sink = x;
        }
    }

    /**
     * This machine's steps per µs, measured the first time it is asked for. {@code ServerStartup.prepare}
     * asks before the variant's framework starts, while the JVM has little else to run: Spring Boot,
     * for one, initialises on a thread of its own while it builds its beans, and a timing beside it on
     * a 2-CPU machine ran a quarter slower than the fastest, so its requests got a quarter less work.
     */
    public static Calibration calibrated() {
        Calibration known = CALIBRATION.get();
        if (known != null) {
            return known;
        }
        synchronized (CALIBRATION) {
            if (CALIBRATION.get() == null) {
                CALIBRATION.set(calibrate());
            }
            return CALIBRATION.get();
        }
    }

    /**
     * Times the chain on a platform thread of its own: a virtual thread has no CPU time of its own
     * (JDK 21), and whatever thread asks (Spring's, a test's) may not be a platform thread.
     */
    private static Calibration calibrate() {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                result.set(measure());
            } catch (RuntimeException | Error e) {
                result.set(e);
            }
        }, "testbed-work-calibration");
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calibrating --work-us", e);
        }
        if (result.get() instanceof Calibration calibration) {
            return calibration;
        }
        Throwable failure = (Throwable) result.get();
        throw new IllegalStateException("--work-us could not be calibrated: " + failure.getMessage(), failure);
    }

    /** On the calling platform thread: warm the chain up, then the fastest of {@link #TIMINGS} timings. */
    private static Calibration measure() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM does not measure a thread's CPU time, which the calibration needs");
        }
        if (!threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
        long started = System.nanoTime();
        long x = SEED;
        for (int i = 0; i < WARM_UP_CALLS; i++) {
            x = chain(100_000, x);
        }
        long fastestNanos = Long.MAX_VALUE;
        for (int i = 0; i < TIMINGS; i++) {
            long before = threads.getCurrentThreadCpuTime();
            x = chain(STEPS_PER_TIMING, x);
            long took = threads.getCurrentThreadCpuTime() - before;
            if (took > 0) {
                fastestNanos = Math.min(fastestNanos, took);
            }
        }
        consume(x);
        if (fastestNanos == Long.MAX_VALUE) {
            throw new IllegalStateException("the thread's CPU time did not advance while timing");
        }
        return new Calibration(STEPS_PER_TIMING * 1000.0 / fastestNanos, (System.nanoTime() - started) / 1_000_000);
    }

    /** Steps of the chain per µs of CPU at full speed, and how long finding it took. */
    public record Calibration(double stepsPerMicro, long tookMillis) {
    }

    @Override
    public String toString() {
        return micros == 0 ? "no work" : micros + " us = " + steps + " steps (" + Math.round(stepsPerMicro) + " per us)";
    }
}
