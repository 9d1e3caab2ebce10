package org.testbed.runner;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.testbed.runner.proc.MachineSpeed;
import org.testbed.runner.proc.SpeedReference;
import org.testbed.runner.step.Levels;
import org.testbed.runner.step.Pinning;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "machine", mixinStandardHelpOptions = true,
        header = {"How steady this machine's CPUs are, before you trust a run on it: a fixed 10 ms loop timed on every CPU"
                + " every 200 ms, its speed over time, and the share of the time each CPU ran slow."},
        description = {"How steady this machine's CPUs are, before you trust a run on it: a fixed loop of about 10 ms"
                + " timed in its thread's own CPU time every 200 ms on each CPU (one thread pinned to each, about 5 %% of"
                + " a CPU), its speed relative to the fastest tenth of that CPU's probes, and how much of the time it ran"
                + " under 0.9 of that. On a VM whose host runs other tenants on the same cores, the guest's CPUs slow down"
                + " without any sign inside it (no steal, no other process): a run there measures the host as much as the"
                + " server. Run it on an idle machine. The same loop runs beside every window of ./testbed run.",
                "",
                "--loop-lengths 0.3,1,3,10,30 instead times loops of those lengths (ms) in turn on this thread, and says"
                        + " how much each scatters: pin it to an idle CPU (taskset -c 1 ./testbed machine --loop-lengths"
                        + " ...). The shortest loop whose scatter stays under 1 %% measures the CPU, not itself."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:Done, steady or not (the verdict is in the last line)", Main.EXIT_2})
final class MachineCommand implements Callable<Integer> {
    static final Duration PERIOD = Duration.ofMillis(200);
    /** A CPU whose probes ran slow more often than this is not steady. */
    static final double NOT_STEADY_SHARE = 0.05;
    /** The validation's loops are timed in rounds, each length once a round. */
    static final Duration ROUND = Duration.ofMillis(200);
    /** Before the validation: the JIT compiles the loop. */
    static final Duration JIT_WARM_UP = Duration.ofSeconds(2);

    @Option(names = "--duration", defaultValue = "30s", paramLabel = "TIME",
            description = "How long to probe, e.g. 30s, 5m (default: ${DEFAULT-VALUE})")
    String duration;

    @Option(names = "--loop-lengths", split = ",", paramLabel = "MS",
            description = "Validate the loop instead: time loops of these lengths in milliseconds (e.g. 0.3,1,3,10,30)"
                    + " in turn on this thread, and give each one's coefficient of variation and share under 0.9")
    List<Double> loopLengths;

    @Override
    public Integer call() throws InterruptedException, IOException {
        Duration length = Levels.duration(duration);
        if (loopLengths != null && !loopLengths.isEmpty()) {
            validate(length);
            return 0;
        }
        boolean pin = Pinning.tasksetAvailable();
        List<Integer> cpus = pin ? Pinning.allowedCpus() : List.of(-1);
        System.out.printf(Locale.ROOT, "machine: a fixed %d ms loop on %s, one probe every %d ms on each, over %s%n",
                MachineSpeed.LOOP_MS, pin ? "CPU " + Pinning.format(cpus) + " (a thread pinned to each)" : "any CPU (taskset"
                        + " is not installed: one thread, not pinned)", PERIOD.toMillis(), duration);
        List<long[]> nanos = new ArrayList<>();
        try (SpeedReference reference = SpeedReference.start(cpus, PERIOD, pin
                ? (tid, cpu) -> Pinning.pinThread(tid, Integer.toString(cpu)) : (tid, cpu) -> { })) {
            long start = System.nanoTime();
            long end = start + length.toNanos();
            long nextLine = start + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < end) {
                Thread.sleep(Math.max(1, Math.min(end, nextLine) - System.nanoTime()) / 1_000_000 + 1);
                if (System.nanoTime() >= nextLine) {
                    System.out.println(progress(reference, start, nextLine));
                    nextLine += Duration.ofSeconds(5).toNanos();
                }
            }
            for (int cpu : cpus) {
                nanos.add(periodic(reference, cpu, start, end));
            }
        }
        List<MachineSpeed.Summary> summaries = new ArrayList<>();
        for (int i = 0; i < cpus.size(); i++) {
            if (nanos.get(i).length == 0) {
                continue;
            }
            MachineSpeed.Summary s = MachineSpeed.Summary.of(nanos.get(i));
            summaries.add(s);
            System.out.println("  " + cpuLabel(cpus.get(i)) + ": " + figures(s, PERIOD));
        }
        System.out.println(verdict(summaries, PERIOD));
        return 0;
    }

    /** The probes of {@code cpu} taken in {@code [from, to]} (not the calibration burst): their CPU times. */
    private static long[] periodic(SpeedReference reference, int cpu, long from, long to) {
        return reference.readings(cpu).stream().filter(r -> r.within(from, to)).mapToLong(SpeedReference.Reading::cpuNanos)
                .toArray();
    }

    /** The last five seconds of each CPU: {@code   5 s: CPU 0 median 1.00, slowest 0.98; CPU 1 median 1.00, slowest 0.97}. */
    private static String progress(SpeedReference reference, long start, long now) {
        List<String> parts = new ArrayList<>();
        for (int cpu : reference.cpus()) {
            long[] recent = periodic(reference, cpu, now - Duration.ofSeconds(5).toNanos(), now);
            if (recent.length == 0) {
                continue;
            }
            Arrays.sort(recent);
            parts.add(String.format(Locale.ROOT, "%s median %.2f, slowest %.2f", cpuLabel(cpu),
                    reference.fullSpeedNanos(cpu) / recent[(recent.length - 1) / 2],
                    reference.fullSpeedNanos(cpu) / recent[recent.length - 1]));
        }
        return String.format(Locale.ROOT, "  %3d s: %s", Math.round((now - start) / 1e9), String.join("; ", parts));
    }

    private static String cpuLabel(int cpu) {
        return cpu < 0 ? "any CPU" : "CPU " + cpu;
    }

    /**
     * The validation: each length of {@link #loopLengths} timed once a round, every {@link #ROUND},
     * the rounds interleaving the lengths so that whatever the machine does falls on all alike.
     */
    private void validate(Duration length) throws InterruptedException {
        MachineSpeed reference = MachineSpeed.calibrated(JIT_WARM_UP);
        List<MachineSpeed> loops = new ArrayList<>();
        for (double ms : loopLengths) {
            loops.add(new MachineSpeed(MachineSpeed.unitsFor(Duration.ofNanos(Math.round(ms * 1e6)), reference.units(),
                    MachineSpeed.LOOP.toNanos())));
        }
        int rounds = (int) Math.max(2, length.toMillis() / ROUND.toMillis());
        long[][] nanos = new long[loops.size()][rounds];
        System.out.printf(Locale.ROOT, "machine: loops of %s ms timed in this thread's CPU time, each once every %d ms,"
                        + " %d times, on CPU %s%n", loopLengths.stream().map(MachineCommand::ms).toList(), ROUND.toMillis(),
                rounds, Pinning.format(Pinning.allowedCpus()));
        for (int r = 0; r < rounds; r++) {
            long next = System.nanoTime() + ROUND.toNanos();
            for (int i = 0; i < loops.size(); i++) {
                nanos[i][r] = loops.get(i).probeNanos();
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
        }
        System.out.println("| loop | CV | under 0.9 | median speed | slowest |");
        System.out.println("| --- | --- | --- | --- | --- |");
        for (int i = 0; i < loops.size(); i++) {
            System.out.println(validationRow(loopLengths.get(i), MachineSpeed.Summary.of(nanos[i])));
        }
    }

    /** {@code | 10 ms | 0.6 % | 0 % | 1.00 | 0.98 |}. */
    static String validationRow(double ms, MachineSpeed.Summary s) {
        return String.format(Locale.ROOT, "| %s ms | %.1f %% | %.0f %% | %.2f | %.2f |", ms(ms), s.cvPct(), 100 * s.slowShare(),
                s.medianSpeed(), s.slowestSpeed());
    }

    private static String ms(double ms) {
        return ms == Math.rint(ms) ? Long.toString(Math.round(ms)) : Double.toString(ms);
    }

    /** One CPU's figures: {@code median 1.00, slowest 0.97, coefficient of variation 0.6 %; under 0.9 in 0 % of 600 probes, ...}. */
    static String figures(MachineSpeed.Summary s, Duration period) {
        return String.format(Locale.ROOT, "speed relative to the fastest tenth of its probes: median %.2f, slowest %.2f,"
                        + " coefficient of variation %.1f %%; under %.1f in %.0f %% of %d probes, at most %.1f s in a row",
                s.medianSpeed(), s.slowestSpeed(), s.cvPct(), MachineSpeed.SLOW, 100 * s.slowShare(), s.probes(),
                s.longestSlowSpell() * period.toMillis() / 1000.0);
    }

    /** The CPUs' summaries in a sentence, with what they mean for a run: not steady when any CPU ran slow too often. */
    static String verdict(List<MachineSpeed.Summary> cpus, Duration period) {
        double worst = cpus.stream().mapToDouble(MachineSpeed.Summary::slowShare).max().orElse(0);
        double slowest = cpus.stream().mapToDouble(MachineSpeed.Summary::slowestSpeed).min().orElse(Double.NaN);
        double cv = cpus.stream().mapToDouble(MachineSpeed.Summary::cvPct).max().orElse(Double.NaN);
        String figures = String.format(Locale.ROOT, "the slowest probe at %.2f of its CPU's fastest tenth, the widest"
                + " coefficient of variation %.1f %%; under %.1f in %.0f %% of the probes of the worst CPU", slowest, cv,
                MachineSpeed.SLOW, 100 * worst);
        if (worst <= NOT_STEADY_SHARE) {
            return "machine: steady. " + figures + ".";
        }
        return "machine: NOT STEADY. " + figures + ". Something outside this machine's view (the host's other tenants,"
                + " a busy hyperthread sibling) slows its CPUs: a run here measures that too. Expect wide intervals and"
                + " windows left out or repeated (./testbed run --slow-machine), compare runs made side by side, and prefer"
                + " ratios within one run (docs/FINDINGS.md).";
    }
}
