package org.testbed.runner.step;

import java.util.List;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.Saturation;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.driver.LoadResult;
import org.testbed.driver.proc.ClockTicks;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runner.proc.CpuTimes;

/**
 * Where a step's CPU time went, from two {@link ServerSnapshot}s and the driver's result: the
 * server's user and system time per request, the load side's share of its CPUs (driver, memcached
 * when it shares them, interrupts), and the busy time no process of the run accounts for. A step
 * whose load side was saturated may have measured the client; one with much other load is noisy.
 * With the load sent from other machines, the busiest one's load engine flags it too.
 *
 * @param loadSidePct driver + memcached (when on the load CPUs) + irq/softirq there, in % of the load CPUs
 * @param otherLoadPct busy time on the server's or the load CPUs that the run's processes do not explain
 * @param serverBusyPct how busy the server's CPUs were; with the server on its own machine, all of that machine's
 * @param stealPct time the hypervisor took from this machine's CPUs; with the server on its own machine, from its
 * @param serverThreads the server's threads at the end of the step
 * @param cpuClock how the server's CPU time was read ({@link ServerCpuTime})
 */
record LoadAccounting(double userMs, double sysMs, double userMsPerReq, double sysMsPerReq, double driverPct,
                      double memcachedPct, double loadIrqPct, double loadSidePct, boolean saturated,
                      double loadBusyPct, double serverBusyPct, double stealPct, double otherLoadPct, boolean noisy,
                      List<Integer> loadList, List<Integer> serverList, long serverThreads, String cpuClock) {

    /** Busy CPU time not accounted for by the run's processes above which a step is called noisy. */
    static final double NOISE_PCT = SampleRecord.NOT_QUIET_PCT;

    static LoadAccounting of(ServerSnapshot before, ServerSnapshot after, LoadResult result, Pinning pinning,
                             double saturationPct) {
        int loadCpus = pinning.loadCpuCount();
        ProcStat cpu = after.server().minus(before.server());
        long requests = result.requests();
        ServerCpuTime serverCpu = ServerCpuTime.of(cpu, after.server(), before.saturation(), after.saturation());
        double userMs = serverCpu.userMs();
        double sysMs = serverCpu.sysMs();
        double windowMs = result.seconds() * 1000.0;
        double driverPct = windowMs > 0 ? 100.0 * result.driverCpuMs() / (windowMs * loadCpus) : 0;
        List<Integer> all = Pinning.allowedCpusAtStart();
        List<Integer> loadList = pinning.loadCpus().isEmpty() ? all : Pinning.parse(pinning.loadCpus());
        List<Integer> serverList = pinning.serverCpus().isEmpty() ? all : Pinning.parse(pinning.serverCpus());
        double loadBusy = after.machine().busyPct(before.machine(), loadList);
        double serverBusy = after.machine().busyPct(before.machine(), serverList);
        double steal = after.machine().stealPct(before.machine(), all);
        if (before.serverMachine().isPresent() && after.serverMachine().isPresent()) {
            // The server on its own machine: its CPUs' busy time and steal are that machine's, all its CPUs.
            CpuTimes from = before.serverMachine().get();
            CpuTimes to = after.serverMachine().get();
            serverList = to.perCpu().keySet().stream().sorted().toList();
            serverBusy = to.busyPct(from, serverList);
            steal = to.stealPct(from, serverList);
        }
        // memcached counts on the load side only when it runs on the load CPUs (the default split).
        boolean memcachedOnLoad = before.memcached() != null && after.memcached() != null && !pinning.loadCpus().isEmpty()
                && pinning.memcachedCpus().equals(pinning.loadCpus());
        double memcachedPct = memcachedOnLoad && windowMs > 0
                ? 100.0 * ClockTicks.toMillis(after.memcached().minus(before.memcached()).ticks()) / (windowMs * loadCpus) : 0;
        // Interrupt and softirq time on the load CPUs is mostly the loopback traffic of the driver's
        // sockets (and memcached's): load-side work that no process's /proc/PID/stat shows.
        double loadIrq = pinning.loadCpus().isEmpty() ? 0
                : Math.max(0, loadBusy - after.machine().processBusyPct(before.machine(), loadList));
        double loadSide = driverPct + memcachedPct + loadIrq;
        double otherLoad = 0;
        if (!pinning.serverCpus().isEmpty() && windowMs > 0) {
            double serverOwn = 100.0 * (userMs + sysMs) / (windowMs * serverList.size());
            double loadOwn = driverPct + memcachedPct; // process time only: compared with process busy time
            otherLoad = Math.max(0, Math.max(after.machine().processBusyPct(before.machine(), serverList) - serverOwn,
                    after.machine().processBusyPct(before.machine(), loadList) - loadOwn));
        }
        return new LoadAccounting(userMs, sysMs, requests > 0 ? userMs / requests : Double.NaN,
                requests > 0 ? sysMs / requests : Double.NaN, driverPct, memcachedPct, loadIrq, loadSide,
                loadSide > saturationPct || result.loadHostsBusiestPct() > saturationPct, loadBusy, serverBusy, steal, otherLoad, otherLoad > NOISE_PCT, loadList, serverList,
                cpu.threads(), serverCpu.clock());
    }

    /** The server's side of the step, as steps.csv records it, with its {@code saturation} readings. */
    StepRecord.ServerSide serverSide(Saturation saturation) {
        return new StepRecord.ServerSide(serverBusyPct, serverThreads, saturation, cpuClock);
    }

    /** Who else used the CPUs, as steps.csv records it. */
    StepRecord.LoadSide loadSide() {
        return new StepRecord.LoadSide(memcachedPct, loadBusyPct, stealPct, otherLoadPct, loadSidePct, saturated);
    }
}
