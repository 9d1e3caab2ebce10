package org.testbed.runner.host;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runfolder.counters.CounterReading;
import org.testbed.runner.deploy.Deployer;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.problem.Problems;
import org.testbed.runner.proc.CgroupCpu;
import org.testbed.runner.proc.CompilerThreads;
import org.testbed.runner.proc.CpuTimes;
import org.testbed.runner.proc.GcCounters;
import org.testbed.runner.proc.ProcStatus;
import org.testbed.runner.proc.SaturationReading;
import org.testbed.runner.proc.TcpCounters;
import org.testbed.runner.proc.ThreadSchedules;
import org.testbed.ssh.RemoteResult;

/**
 * A variant deployed on the server's machine ({@link RemoteHost#start}), read there with the
 * methods of a local run: one ssh command per reading prints {@code /proc/PID/stat},
 * {@code /proc/PID/status} and the JVM's hsperfdata file (base64), parsed here by the same parsers.
 */
public final class RemoteServer implements RunningServer {
    /**
     * Prints stat, status and hsperfdata of the pid in DIR/testbed.pid, then the machine's
     * /proc/stat, then its saturation readings ({@link SaturationReading}): its threads' schedstat and
     * involuntary switches, its network namespace's TCP counters, and the cpu.stat of the cgroup
     * given as the second argument (none when it is empty); split by lines of {@value #SPLIT}.
     * A thread that ends while grep reads it is left out, as a local reading leaves it out.
     */
    static final String READ = String.join("\n",
            "p=$(cat \"$1/testbed.pid\" 2>/dev/null) && [ -r \"/proc/$p/stat\" ] || { echo 'not running'; exit 4; }",
            "cat \"/proc/$p/stat\"; echo @@; cat \"/proc/$p/status\"; echo @@",
            "base64 -w0 \"/tmp/hsperfdata_$(id -un)/$p\" 2>/dev/null; echo; echo @@; cat /proc/stat",
            "echo @@; grep -H '' /proc/$p/task/*/schedstat 2>/dev/null",
            "echo @@; grep -H '^nonvoluntary_ctxt_switches' /proc/$p/task/*/status 2>/dev/null",
            "echo @@; cat \"/proc/$p/net/netstat\" \"/proc/$p/net/snmp\"",
            "echo @@; if [ -n \"$2\" ]; then cat \"$2/cpu.stat\"; fi",
            "");
    /** The server's /proc/PID/cgroup and the reader's mountinfo, to find its cgroup's directories ({@link CgroupCpu#candidates}). */
    static final String READ_CGROUP = String.join("\n",
            "p=$(cat \"$1/testbed.pid\" 2>/dev/null) || exit 4",
            "cat \"/proc/$p/cgroup\"; echo @@; cat /proc/self/mountinfo",
            "");
    /** The CPU limit files of each directory given, each after a line {@code @@ PATH}. */
    static final String READ_LIMITS = String.join("\n",
            "for d in \"$@\"; do for f in cpu.max cpu.cfs_quota_us cpu.cfs_period_us; do",
            "  if [ -r \"$d/$f\" ]; then echo \"@@ $d/$f\"; cat \"$d/$f\"; fi",
            "done; done",
            "");
    /**
     * The JIT compiler threads' schedstat lines ({@code TID RUN_NS WAIT_NS SLICES}): the warm-up's
     * reading once a second ({@link CompilerThreads#parse}).
     */
    private static final String READ_COMPILERS = String.join("\n",
            "p=$(cat \"$1/testbed.pid\" 2>/dev/null) || exit 4",
            "for t in /proc/$p/task/*; do case \"$(cat \"$t/comm\" 2>/dev/null)\" in *" + CompilerThreads.NAME_PART
                    + "*) echo \"${t##*/} $(cat \"$t/schedstat\" 2>/dev/null)\";; esac; done",
            "");
    private static final String SPLIT = "@@";

    private final ServerMachine machine;
    private final Deployer deployer;
    private final long pid;
    private final URI baseUri;
    private final JdkInfo jdk;
    private final MachineLabel label;
    private final Problems problems;
    /** Its cgroup with a CPU limit there, found at its first reading; null until then. */
    private Optional<CgroupCpu> limitedCgroup;

    RemoteServer(ServerMachine machine, Deployer deployer, long pid, URI baseUri, JdkInfo jdk, MachineLabel label,
                 Problems problems) {
        this.label = label;
        this.machine = machine;
        this.deployer = deployer;
        this.pid = pid;
        this.baseUri = baseUri;
        this.jdk = jdk;
        this.problems = problems;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public URI baseUri() {
        return baseUri;
    }

    @Override
    public boolean isAlive() {
        return machine.run(ServerMachine.SHORT, "kill", "-0", Long.toString(pid)).ok();
    }

    @Override
    public ServerReading read() throws IOException {
        if (limitedCgroup == null) {
            limitedCgroup = locateCgroup();
        }
        RemoteResult result = machine.script(READ, deployer.directory(),
                limitedCgroup.map(c -> c.dir().toString()).orElse(""));
        if (!result.ok()) {
            throw new IOException("the server is not running on " + machine.destination() + " (" + result.output() + ")");
        }
        return parse(result.stdout(), machine.destination(), limitedCgroup);
    }

    /** Its cgroup with a CPU limit there, or empty: read once, a process stays in its cgroup. */
    private Optional<CgroupCpu> locateCgroup() throws IOException {
        RemoteResult cgroup = machine.script(READ_CGROUP, deployer.directory());
        if (!cgroup.ok()) {
            throw new IOException("the server is not running on " + machine.destination() + " (" + cgroup.output() + ")");
        }
        String[] parts = cgroup.stdout().split("(?m)^" + SPLIT + "$\\R?", 2);
        List<Path> candidates = CgroupCpu.candidates(parts[0], parts.length > 1 ? parts[1] : "");
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        RemoteResult limits = machine.script(READ_LIMITS, candidates.stream().map(Path::toString).toArray(String[]::new));
        Map<String, String> files = limitFiles(limits.stdout());
        return CgroupCpu.nearestLimit(candidates, path -> Optional.ofNullable(files.get(path.toString())));
    }

    /** The files {@link #READ_LIMITS} printed, by path. */
    static Map<String, String> limitFiles(String output) {
        Map<String, String> files = new LinkedHashMap<>();
        String path = null;
        StringBuilder content = new StringBuilder();
        // A last path line of nothing closes the last file.
        String closed = output.isEmpty() || output.endsWith("\n") ? output : output + "\n";
        for (String line : (closed + SPLIT + " ").split("\\R")) {
            if (line.startsWith(SPLIT + " ")) {
                if (path != null) {
                    files.put(path, content.toString());
                }
                path = line.substring(SPLIT.length() + 1);
                content.setLength(0);
            } else {
                content.append(line).append('\n');
            }
        }
        return files;
    }

    /** As {@link #parse(String, String, Optional)} for a server whose cgroup has no CPU limit. */
    static ServerReading parse(String output, String where) throws IOException {
        return parse(output, where, Optional.empty());
    }

    /**
     * Parses the output of one reading; an hsperfdata file that is not there gives GC counts of 0 and
     * says so, and an output without the saturation sections gives none.
     *
     * @param cgroup the server's cgroup with a CPU limit, whose cpu.stat the reading printed last
     */
    static ServerReading parse(String output, String where, Optional<CgroupCpu> cgroup) throws IOException {
        String[] parts = output.split("(?m)^" + SPLIT + "$\\R?", -1);
        if (parts.length < 3) {
            throw new IOException("unreadable reading from " + where + ": " + output.strip().lines().findFirst().orElse(""));
        }
        ProcStat cpu = ProcStat.parse(parts[0].strip());
        ProcStatus memory = ProcStatus.parse(parts[1]);
        String perfData = parts[2].strip();
        GcCounters gc = perfData.isEmpty() ? new GcCounters(0, 0, "no hsperfdata on " + where)
                : GcCounters.fromPerfData(Base64.getDecoder().decode(perfData), "hsperfdata on " + where);
        CpuTimes machine = parts.length > 3 ? CpuTimes.parse(parts[3]) : null;
        return new ServerReading(cpu, gc, memory, machine, parts.length > 7 ? saturation(parts, cgroup) : null);
    }

    /**
     * The saturation sections of a reading, or null when that machine's {@code /proc} did not give
     * them (a kernel without schedstat prints no thread): the step is measured, its saturation
     * columns empty.
     */
    private static SaturationReading saturation(String[] parts, Optional<CgroupCpu> cgroup) {
        try {
            ThreadSchedules threads = ThreadSchedules.parse(parts[4], parts[5]);
            if (threads.threads().isEmpty()) {
                return null;
            }
            return new SaturationReading(threads, TcpCounters.parse(parts[6]), SaturationReading.allowedCpus(parts[1]),
                    cgroup.isPresent() ? Optional.of(CgroupCpu.parseStat(parts[7])) : Optional.empty(),
                    cgroup.map(CgroupCpu::limitCpus).orElse(Double.NaN), System.nanoTime());
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public CompilerThreads compilers() {
        try {
            RemoteResult result = machine.script(READ_COMPILERS, deployer.directory());
            return result.ok() ? CompilerThreads.parse(result.stdout()) : null;
        } catch (RuntimeException e) {
            return null; // not known this second (a lost connection shows at the step's next reading)
        }
    }

    @Override
    public JdkInfo jdk() {
        return jdk;
    }

    /** perf stat attached to it there; under an emulator, nothing, with the reason (the counts would be the emulator's). */
    @Override
    public EventCounting countEvents(Path output) {
        if (label.emulation().isPresent()) {
            CounterReading none = CounterReading.unavailable("not counted: the server's JVM is " + label.describeArch()
                    + ", so perf would count the emulator's " + label.emulation().get().machineArch()
                    + " instructions and cycles, not its " + label.arch() + " code's");
            return () -> none;
        }
        return RemotePerfStat.attach(machine, deployer.directory(), pid, output);
    }

    /**
     * It, profiled there through jcmd; under an emulator, a profile that fails with the reason at its
     * start (the step goes on without a flame graph).
     */
    @Override
    public FlightRecording record(String name, List<String> settings) throws IOException {
        return RemoteFlightRecording.start(machine, deployer.directory(), pid, jdk.home(), name, settings);
    }

    @Override
    public Flamegraphs.Profiled profiled(Flamegraphs flamegraphs) {
        if (label.emulation().isPresent()) {
            return new Unprofiled("not profiled: the server's JVM is " + label.describeArch() + "; its JDK's jcmd, which"
                    + " loads the profiler, is an " + label.arch() + " program that machine runs only through the emulator,"
                    + " and the proportions of an emulated run are the emulator's, not an " + label.arch() + " machine's");
        }
        return new RemoteProfiled(machine, deployer.directory(), pid, jdk.home(), label.arch());
    }

    /** A server that cannot be profiled: each call fails with why. */
    private record Unprofiled(String why) implements Flamegraphs.Profiled {
        @Override
        public Optional<String> unprofilable() {
            return Optional.of(why);
        }

        @Override
        public void load(String arguments) throws IOException {
            throw new IOException(why);
        }

        @Override
        public String writePath(Path local) {
            return local.toString();
        }

        @Override
        public void fetch(Path local) throws IOException {
            throw new IOException(why);
        }
    }

    @Override
    public MachineLabel machine() {
        return label;
    }

    /**
     * Stops it there. When the machine cannot be reached any more, says so: the run's lifeline
     * stops it when its session ends.
     */
    @Override
    public void close() {
        try {
            RemoteResult stopped = deployer.stop();
            if (!stopped.ok()) {
                problems.serverNotStopped("could not stop the server in " + deployer.directory() + " on " + machine.destination()
                        + ": " + stopped.output());
            }
        } catch (RuntimeException e) {
            problems.serverNotStopped("could not stop the server in " + deployer.directory() + " on " + machine.destination() + " ("
                    + e.getMessage() + "); it is stopped there when the run's ssh session ends");
        }
    }
}
