package org.testbed.runner;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.testbed.runner.proc.MachineSpeed;
import org.testbed.runner.step.Levels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "machine", mixinStandardHelpOptions = true,
        header = {"How steady this machine's CPUs are, before you trust a run on it: a fixed loop timed every 100 ms,"
                + " its speed over time, and the share of the time it ran slow."},
        description = {"How steady this machine's CPUs are, before you trust a run on it: a fixed loop timed in its"
                + " thread's own CPU time every 100 ms (about 0.3 %% of a CPU), its speed relative to the fastest tenth"
                + " of the probes, and how much of the time it ran under 0.9 of that. On a VM whose host runs other"
                + " tenants on the same cores, the guest's CPUs slow down without any sign inside it (no steal, no"
                + " other process): a run there measures the host as much as the server. Run it on an idle machine."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:Done, steady or not (the verdict is in the last line)", Main.EXIT_2})
final class MachineCommand implements Callable<Integer> {
    static final Duration PERIOD = Duration.ofMillis(100);
    /** Probes before this are the JIT compiling the loop, not the machine: left out. */
    static final Duration JIT_WARM_UP = Duration.ofSeconds(2);

    @Option(names = "--duration", defaultValue = "30s", paramLabel = "TIME",
            description = "How long to probe, e.g. 30s, 5m (default: ${DEFAULT-VALUE})")
    String duration;

    @Override
    public Integer call() throws InterruptedException {
        Duration length = Levels.duration(duration);
        MachineSpeed probe = new MachineSpeed();
        long warmEnd = System.nanoTime() + JIT_WARM_UP.toNanos();
        while (System.nanoTime() < warmEnd) {
            probe.probeNanos();
        }
        int count = (int) Math.max(1, length.toMillis() / PERIOD.toMillis());
        long[] nanos = new long[count];
        int perLine = (int) (Duration.ofSeconds(5).toMillis() / PERIOD.toMillis());
        System.out.printf(Locale.ROOT, "machine: %d probes of a fixed loop, one every %d ms, over %s%n", count,
                PERIOD.toMillis(), duration);
        for (int i = 0; i < count; i++) {
            long next = System.nanoTime() + PERIOD.toNanos();
            nanos[i] = probe.probeNanos();
            if ((i + 1) % perLine == 0 || i == count - 1) {
                progress(nanos, i + 1, perLine);
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
        }
        MachineSpeed.Summary s = MachineSpeed.Summary.of(nanos);
        System.out.println(verdict(s, PERIOD));
        return 0;
    }

    /** The last few seconds' probes against the fastest so far: {@code   5 s: median 1.00, slowest 0.61}. */
    private static void progress(long[] nanos, int done, int perLine) {
        MachineSpeed.Summary soFar = MachineSpeed.Summary.of(Arrays.copyOf(nanos, done));
        long[] recent = Arrays.copyOfRange(nanos, Math.max(0, done - perLine), done);
        long slowest = Arrays.stream(recent).max().orElseThrow();
        long[] sorted = recent.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "  %3d s: median %.2f, slowest %.2f%n", done * PERIOD.toMillis() / 1000,
                soFar.speedOf(sorted[(sorted.length - 1) / 2]), soFar.speedOf(slowest));
    }

    /** The summary in a sentence, with what it means for a run. */
    static String verdict(MachineSpeed.Summary s, Duration period) {
        String figures = String.format(Locale.ROOT, "speed relative to the fastest tenth of the probes: median %.2f,"
                        + " slowest %.2f; under %.1f in %.0f %% of the probes, at most %.1f s in a row", s.medianSpeed(),
                s.slowestSpeed(), MachineSpeed.SLOW, 100 * s.slowShare(), s.longestSlowSpell() * period.toMillis() / 1000.0);
        if (s.slowShare() <= 0.05) {
            return "machine: steady. " + figures + ".";
        }
        return "machine: NOT STEADY. " + figures + ". Something outside this machine's view (the host's other tenants,"
                + " a busy hyperthread sibling) slows its CPUs: a run here measures that too. Expect wide intervals,"
                + " compare runs made side by side, and prefer ratios within one run (docs/FINDINGS.md).";
    }
}
