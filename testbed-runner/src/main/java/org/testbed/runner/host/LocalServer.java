package org.testbed.runner.host;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.testbed.runner.counters.PerfStat;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.proc.CgroupCpu;
import org.testbed.runner.proc.GcCounters;
import org.testbed.runner.proc.CompilerThreads;
import org.testbed.driver.proc.ProcStat;
import org.testbed.runner.proc.ProcStatus;
import org.testbed.runner.proc.SaturationReading;
import org.testbed.variant.VariantProcess;

/** A variant started on this machine: read from this machine's {@code /proc} and hsperfdata. */
public final class LocalServer implements RunningServer {
    private final VariantProcess process;
    private final JdkInfo jdk;
    private final Path javaHome;
    /** Its cgroup with a CPU limit, found at its first reading (a process stays in its cgroup); null until then. */
    private Optional<CgroupCpu> limitedCgroup;

    /** @param jdk the JDK the variant runs on (its home for jstat, when its hsperfdata file is not there) */
    public LocalServer(VariantProcess process, JdkInfo jdk) {
        this.process = process;
        this.jdk = jdk;
        this.javaHome = jdk.home().isEmpty() ? null : Path.of(jdk.home());
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public URI baseUri() {
        return process.baseUri();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    /** CPU first, as before this class existed: the step's window starts right after it. */
    @Override
    public ServerReading read() throws IOException {
        ProcStat cpu = ProcStat.read(process.pid());
        GcCounters gc = GcCounters.read(process.pid(), javaHome);
        return new ServerReading(cpu, gc, ProcStatus.read(process.pid()), null, saturation());
    }

    /**
     * Its saturation readings, or null when this machine's {@code /proc} cannot give them (a kernel
     * without schedstat): a step is still measured, its saturation columns empty.
     */
    private SaturationReading saturation() {
        try {
            if (limitedCgroup == null) {
                limitedCgroup = CgroupCpu.locate(process.pid());
            }
            return SaturationReading.read(process.pid(), limitedCgroup);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public CompilerThreads compilers() {
        return CompilerThreads.read(process.pid());
    }

    @Override
    public JdkInfo jdk() {
        return jdk;
    }

    @Override
    public EventCounting countEvents(Path output) throws IOException {
        return PerfStat.attach(process.pid(), output)::stop;
    }

    @Override
    public FlightRecording record(String name, List<String> settings) throws IOException {
        return LocalFlightRecording.start(process.pid(), name, settings);
    }

    @Override
    public Flamegraphs.Profiled profiled(Flamegraphs flamegraphs) {
        return flamegraphs.attached(process.pid());
    }

    @Override
    public Optional<Path> localPerfData() {
        return Optional.ofNullable(GcCounters.perfDataFile(process.pid()));
    }

    @Override
    public MachineLabel machine() {
        return MachineLabel.local();
    }

    @Override
    public void close() {
        process.close();
    }
}
