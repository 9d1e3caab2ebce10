package org.testbed.runner.host;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.testbed.deploy.Deployer;
import org.testbed.deploy.RemoteResult;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.proc.CpuTimes;
import org.testbed.runner.proc.GcCounters;
import org.testbed.runner.proc.CompilerThreads;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runner.proc.ProcStatus;

/**
 * A variant deployed on the server's machine ({@link RemoteHost#start}), read there with the
 * methods of a local run: one ssh command per reading prints {@code /proc/PID/stat},
 * {@code /proc/PID/status} and the JVM's hsperfdata file (base64), parsed here by the same parsers.
 */
public final class RemoteServer implements RunningServer {
    /**
     * Prints stat, status and hsperfdata of the pid in DIR/testbed.pid, then the machine's
     * /proc/stat, split by lines of {@value #SPLIT}.
     */
    private static final String READ = String.join("\n",
            "p=$(cat \"$1/testbed.pid\" 2>/dev/null) && [ -r \"/proc/$p/stat\" ] || { echo 'not running'; exit 4; }",
            "cat \"/proc/$p/stat\"; echo @@; cat \"/proc/$p/status\"; echo @@",
            "base64 -w0 \"/tmp/hsperfdata_$(id -un)/$p\" 2>/dev/null; echo; echo @@; cat /proc/stat",
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
    private final List<String> problems;

    RemoteServer(ServerMachine machine, Deployer deployer, long pid, URI baseUri, JdkInfo jdk, MachineLabel label,
                 List<String> problems) {
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
        RemoteResult result = machine.script(READ, deployer.directory());
        if (!result.ok()) {
            throw new IOException("the server is not running on " + machine.destination() + " (" + result.output() + ")");
        }
        return parse(result.stdout(), machine.destination());
    }

    /** Parses the output of one reading; an hsperfdata file that is not there gives GC counts of 0 and says so. */
    static ServerReading parse(String output, String where) throws IOException {
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
        return new ServerReading(cpu, gc, memory, machine);
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

    @Override
    public EventCounting countEvents(Path output) {
        return RemotePerfStat.attach(machine, deployer.directory(), pid, output);
    }

    @Override
    public Flamegraphs.Profiled profiled(Flamegraphs flamegraphs) {
        return new RemoteProfiled(machine, deployer.directory(), pid, jdk.home(), label.arch());
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
                problems.add("could not stop the server in " + deployer.directory() + " on " + machine.destination()
                        + ": " + stopped.output());
            }
        } catch (RuntimeException e) {
            problems.add("could not stop the server in " + deployer.directory() + " on " + machine.destination() + " ("
                    + e.getMessage() + "); it is stopped there when the run's ssh session ends");
        }
    }
}
