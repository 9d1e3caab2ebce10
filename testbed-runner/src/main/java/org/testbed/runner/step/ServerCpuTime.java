package org.testbed.runner.step;

import org.testbed.driver.proc.ClockTicks;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runner.proc.SaturationReading;
import org.testbed.runner.proc.ThreadSchedules;

/**
 * The server's CPU time over a window, user and system, read as finely as the window needs.
 *
 * <p>{@code /proc/PID/stat} counts it in clock ticks of 10 ms, and two readings each round down:
 * a window that held 0.3 s of server CPU (the delay scenario: 400 users asleep 150 ms each) is known
 * to ±2 ticks, ±7 %, which no number of samples averages away cheaply. The threads' {@code schedstat}
 * counts the same time (the scheduler's own clock, from which the ticks are derived) to the
 * nanosecond; the runner reads it around every window anyway, for the run-queue wait. It is used
 * when the window holds fewer than {@value #TICKS_ENOUGH} ticks, where one tick would be more than
 * 1 % of the figure; the ticks are kept where they suffice.
 *
 * <p>schedstat is per thread and has no user/system split: the total is the threads' run time, and
 * it is split in the proportion of the window's ticks (of the process's whole life when the window
 * has none). A thread that ended inside the window takes its time with it, so such a window, or
 * one without both readings, keeps the ticks.
 *
 * @param clock {@link StepRecord.ServerSide#TICKS} or {@link StepRecord.ServerSide#SCHEDSTAT}
 */
record ServerCpuTime(double userMs, double sysMs, String clock) {
    /** Ticks in a window from which on they suffice: one tick is then at most 0.5 % of the figure. */
    static final long TICKS_ENOUGH = 200;

    /**
     * @param delta the server's {@code /proc/PID/stat} over the window
     * @param whole its {@code /proc/PID/stat} at the end of the window (its life so far)
     * @param before its threads' schedules before the window, or null when not read
     * @param after after it, or null
     */
    static ServerCpuTime of(ProcStat delta, ProcStat whole, SaturationReading before, SaturationReading after) {
        double userMs = ClockTicks.toMillis(delta.utime());
        double sysMs = ClockTicks.toMillis(delta.stime());
        long ticks = delta.utime() + delta.stime();
        if (ticks >= TICKS_ENOUGH || before == null || after == null) {
            return new ServerCpuTime(userMs, sysMs, StepRecord.ServerSide.TICKS);
        }
        ThreadSchedules.Delta threads = after.threads().since(before.threads());
        if (threads.ended() > 0 || threads.runNanos() <= 0) {
            return new ServerCpuTime(userMs, sysMs, StepRecord.ServerSide.TICKS);
        }
        double totalMs = threads.runNanos() / 1e6;
        double userShare = ticks > 0 ? (double) delta.utime() / ticks
                : whole.utime() + whole.stime() > 0 ? (double) whole.utime() / (whole.utime() + whole.stime()) : 1;
        return new ServerCpuTime(totalMs * userShare, totalMs * (1 - userShare), StepRecord.ServerSide.SCHEDSTAT);
    }
}
