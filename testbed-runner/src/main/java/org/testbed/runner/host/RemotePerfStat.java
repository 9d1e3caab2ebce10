package org.testbed.runner.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.testbed.runfolder.counters.CounterReading;
import org.testbed.runfolder.counters.PerfEvent;
import org.testbed.ssh.RemoteResult;

/**
 * {@code perf stat} on the server's machine, attached to the server there for one step's window,
 * as {@code PerfStat} does locally: started (detached, so the ssh command returns) and waited for
 * until its counters are open, stopped with SIGINT, its output brought back and parsed by the same
 * code. Whatever perf cannot count there comes back as unavailable, with the reason.
 */
final class RemotePerfStat implements EventCounting {
    /** Arguments: the variant's directory, the server's pid, the events. Prints perf's pid. */
    private static final String START = String.join("\n",
            "command -v perf >/dev/null 2>&1 || { echo \"perf is not installed on $(hostname) (Debian: apt-get install"
                    + " linux-perf)\"; exit 5; }",
            "out=\"$1/perf-stat.txt\"; rm -f \"$out\" \"$out.err\"",
            "setsid perf stat -x , -e \"$3\" -p \"$2\" -o \"$out\" </dev/null >/dev/null 2>\"$out.err\" &",
            "perf=$!",
            "for _ in $(seq 1 100); do [ -s \"$out\" ] && break; kill -0 \"$perf\" 2>/dev/null || break; sleep 0.05; done",
            "echo \"$perf\"",
            "");
    /** Arguments: the variant's directory, perf's pid. Prints its output, its errors, PMU or not, the paranoia. */
    private static final String STOP = String.join("\n",
            "out=\"$1/perf-stat.txt\"",
            "kill -INT \"$2\" 2>/dev/null",
            "for _ in $(seq 1 200); do kill -0 \"$2\" 2>/dev/null || break; sleep 0.05; done",
            "if kill -0 \"$2\" 2>/dev/null; then kill -9 \"$2\"; echo 'perf stat did not stop within 10 s of SIGINT'; exit 6; fi",
            "cat \"$out\" 2>/dev/null; echo @@; grep -v '^[[:space:]]*$' \"$out.err\" 2>/dev/null | head -1; echo @@",
            "d=/sys/bus/event_source/devices",
            "if [ -d $d/cpu ] || [ -d $d/cpu_core ] || ls $d 2>/dev/null | grep -q '^armv8_pmu'; then echo pmu; else echo none; fi",
            "echo @@; cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null",
            "");

    private final ServerMachine machine;
    private final String directory;
    private final Path output;
    private final String perfPid;
    private final CounterReading failed;

    private RemotePerfStat(ServerMachine machine, String directory, Path output, String perfPid, CounterReading failed) {
        this.machine = machine;
        this.directory = directory;
        this.output = output;
        this.perfPid = perfPid;
        this.failed = failed;
    }

    /** Starts counting every thread of {@code pid} there; the counts are copied into {@code output} here. */
    static RemotePerfStat attach(ServerMachine machine, String directory, long pid, Path output) {
        RemoteResult started = machine.script(START, directory, Long.toString(pid), PerfEvent.eventList());
        String said = started.stdout().strip();
        if (!started.ok() || !said.matches("\\d+")) {
            return new RemotePerfStat(machine, directory, output, null,
                    CounterReading.unavailable(said.isEmpty() ? "perf stat could not start on " + machine.destination() : said));
        }
        return new RemotePerfStat(machine, directory, output, said, null);
    }

    @Override
    public CounterReading stop() {
        if (failed != null) {
            return failed;
        }
        RemoteResult stopped = machine.script(STOP, directory, perfPid);
        if (!stopped.ok()) {
            return CounterReading.unavailable(stopped.output().isEmpty() ? "perf stat failed on " + machine.destination()
                    : stopped.output());
        }
        String[] parts = stopped.stdout().split("(?m)^@@$\\R?", -1);
        String counted = parts[0];
        String error = parts.length > 1 ? parts[1].strip() : "";
        boolean pmu = parts.length > 2 && parts[2].strip().equals("pmu");
        String paranoia = parts.length > 3 ? parts[3].strip() : "unknown";
        try {
            Files.createDirectories(output.toAbsolutePath().getParent());
            Files.writeString(output, counted, StandardCharsets.UTF_8);
        } catch (IOException e) {
            // the counts are parsed from memory; the copy is for reading later
        }
        if (counted.lines().noneMatch(l -> !l.isBlank() && !l.startsWith("#"))) {
            return CounterReading.unavailable("perf stat failed on " + machine.destination() + ": "
                    + (error.isEmpty() ? "no output" : error) + " (kernel.perf_event_paranoid=" + paranoia + " there)");
        }
        return CounterReading.parse(counted, pmu ? "not supported by the server machine's CPU or kernel"
                : "not supported: no hardware PMU is exposed to the server's machine (a VM without a virtual PMU)");
    }
}
