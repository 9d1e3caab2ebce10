package org.testbed.runfolder.csv;

import java.util.List;
import java.util.function.Function;
import org.testbed.runfolder.figure.Figure;

/**
 * What says the server was short of something during a step's window, read from {@code /proc}
 * before and after it (always: it costs a few small files per thread). It sits beside the CPU time
 * per request: that says what a request cost, this says whether requests waited for a CPU, a
 * thread or a place in the listen queue. Its columns ({@link #COLUMNS}) are defined once, here, and
 * carried by steps.csv (the median sample's) and samples.csv (each sample's).
 *
 * @param runQueueWaitUsPerReq time the server's threads spent runnable on a run queue without a CPU
 *                             ({@code /proc/PID/task/TID/schedstat} field two, summed), µs per request
 * @param runQueueWaitPct that time over the time between the readings times the CPUs the server could use (those it may
 *                        run on, or its cgroup's limit when lower), in percent: 100 means as many of its
 *                        threads waited as it had CPUs, all the time
 * @param involuntarySwitchesPerReq its threads' preemptions ({@code nonvoluntary_ctxt_switches}), per request
 * @param threadsEnded threads that ended within the window: what they did after the window began is missing
 *                     from the two figures above (the kernel keeps these counts per thread only)
 * @param listenOverflows {@code TcpExt ListenOverflows} over the window: connections dropped because the
 *                        accept backlog was full (the server's network namespace, every socket in it)
 * @param listenDrops {@code TcpExt ListenDrops}: those and every other drop at a listening socket
 * @param tcpRetransmits {@code Tcp RetransSegs}: segments sent again (the same namespace-wide counters)
 * @param cpuLimit the CPU limit of the server's cgroup, in CPUs; NaN when none applies
 * @param throttledPeriods periods in which the cgroup ran out of its quota; NaN without a limit
 * @param throttledMs time the cgroup's threads were held back by it, summed; NaN without a limit
 */
public record Saturation(double runQueueWaitUsPerReq, double runQueueWaitPct, double involuntarySwitchesPerReq,
                         long threadsEnded, double listenOverflows, double listenDrops, double tcpRetransmits,
                         double cpuLimit, double throttledPeriods, double throttledMs) {

    /** A step measured without these readings (an older runner): every figure unknown. */
    public static final Saturation UNKNOWN = new Saturation(Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    private static final Column<Saturation> RUNQ_WAIT_US_PER_REQ = Column.figure("runq_wait_us_per_req", Figure.RUNQ_WAIT, Saturation::runQueueWaitUsPerReq);
    private static final Column<Saturation> RUNQ_WAIT_PCT = Column.decimal("runq_wait_pct", 1, Saturation::runQueueWaitPct);
    private static final Column<Saturation> INVOLUNTARY_CS_PER_REQ = Column.figure("involuntary_cs_per_req", Figure.INVOLUNTARY_CS, Saturation::involuntarySwitchesPerReq);
    private static final Column<Saturation> THREADS_ENDED = Column.count("threads_ended", Saturation::threadsEnded);
    private static final Column<Saturation> LISTEN_OVERFLOWS = Column.decimal("listen_overflows", 0, Saturation::listenOverflows);
    private static final Column<Saturation> LISTEN_DROPS = Column.decimal("listen_drops", 0, Saturation::listenDrops);
    private static final Column<Saturation> TCP_RETRANSMITS = Column.decimal("tcp_retransmits", 0, Saturation::tcpRetransmits);
    private static final Column<Saturation> CPU_LIMIT = Column.decimal("cgroup_cpu_limit", 2, Saturation::cpuLimit);
    private static final Column<Saturation> THROTTLED_PERIODS = Column.decimal("cpu_throttled_periods", 0, Saturation::throttledPeriods);
    private static final Column<Saturation> THROTTLED_MS = Column.decimal("cpu_throttled_ms", 1, Saturation::throttledMs);

    /** The columns, in order. */
    public static final List<Column<Saturation>> COLUMNS = List.of(RUNQ_WAIT_US_PER_REQ, RUNQ_WAIT_PCT,
            INVOLUNTARY_CS_PER_REQ, THREADS_ENDED, LISTEN_OVERFLOWS, LISTEN_DROPS, TCP_RETRANSMITS, CPU_LIMIT,
            THROTTLED_PERIODS, THROTTLED_MS);

    /** The columns for a table whose record holds a {@code Saturation}. */
    static <T> List<Column<T>> columnsOf(Function<T, Saturation> part) {
        return COLUMNS.stream().map(c -> c.of(part)).toList();
    }

    /** Reads the figures back; a file from before these columns reads as {@link #UNKNOWN}. */
    static Saturation read(CsvRow v) {
        return new Saturation(v.decimal(RUNQ_WAIT_US_PER_REQ), v.decimal(RUNQ_WAIT_PCT), v.decimal(INVOLUNTARY_CS_PER_REQ),
                v.count(THREADS_ENDED), v.decimal(LISTEN_OVERFLOWS), v.decimal(LISTEN_DROPS), v.decimal(TCP_RETRANSMITS),
                v.decimal(CPU_LIMIT), v.decimal(THROTTLED_PERIODS), v.decimal(THROTTLED_MS));
    }

    /**
     * Why a step whose listen queue overflowed has a latency tail that is not the server's: the kernel
     * dropped connection attempts, which their clients retry only after the initial retransmission
     * timeout (1 s on Linux), so the slowest requests waited for a connection, not for an answer.
     */
    public static final String CONNECT_RETRIES = "its tail holds connect retries, not service time";

    /** Whether a listen queue overflowed over the window: the latency tail holds {@link #CONNECT_RETRIES}. */
    public boolean listenQueueOverflowed() {
        return listenOverflows > 0;
    }

    /** Whether the step had these readings. */
    public boolean known() {
        return !Double.isNaN(runQueueWaitUsPerReq);
    }
}
