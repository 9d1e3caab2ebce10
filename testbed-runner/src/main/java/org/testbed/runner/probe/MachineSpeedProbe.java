package org.testbed.runner.probe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runner.proc.MachineSpeed;
import org.testbed.runner.proc.SpeedReference;

/**
 * The machine's speed through the window, on the server's CPUs and on the load's
 * ({@link Figure#SERVER_SPEED}, {@link Figure#LOAD_SPEED}), from the run's {@link SpeedReference}:
 * the probes that ran wholly inside the window, each against its CPU's full speed so far, averaged
 * per side. The reference runs for the whole run; when the window opens it is asked for its next
 * probe {@link #FIRST_PROBE} later ({@link SpeedReference#nudge}), so that a window shorter than the
 * reference's period still holds one. The raw file gets every probe and what the reference cost.
 */
public final class MachineSpeedProbe implements Probe {
    /** The first probe after the window opens: soon, past the window's first connections. */
    static final Duration FIRST_PROBE = Duration.ofMillis(250);

    private final SpeedReference reference;
    private final Set<Integer> serverCpus;
    private final Set<Integer> loadCpus;
    private long start;
    private long end;
    private long cpuBefore;
    private long cpuAfter;
    private boolean closed;

    /**
     * @param serverCpus the reference's CPUs the server runs on (empty: not timed, a server on another machine)
     * @param loadCpus those the load driver and memcached run on
     */
    public MachineSpeedProbe(SpeedReference reference, Set<Integer> serverCpus, Set<Integer> loadCpus) {
        this.reference = reference;
        this.serverCpus = Set.copyOf(serverCpus);
        this.loadCpus = Set.copyOf(loadCpus);
    }

    @Override
    public String observes() {
        return "machine speed";
    }

    @Override
    public Set<Figure> figures() {
        return EnumSet.of(Figure.SERVER_SPEED, Figure.LOAD_SPEED);
    }

    @Override
    public void beforeWindow() {
        cpuBefore = reference.cpuNanos();
        start = System.nanoTime();
        reference.nudge(FIRST_PROBE);
    }

    @Override
    public void afterWindow() {
        end = System.nanoTime();
        cpuAfter = reference.cpuNanos();
        closed = true;
    }

    @Override
    public ProbeResult result() {
        if (!closed) {
            return ProbeResult.NONE;
        }
        Map<Figure, Double> speeds = new EnumMap<>(Figure.class);
        OptionalDouble server = reference.speedOver(serverCpus, start, end);
        OptionalDouble load = reference.speedOver(loadCpus, start, end);
        server.ifPresent(v -> speeds.put(Figure.SERVER_SPEED, v));
        load.ifPresent(v -> speeds.put(Figure.LOAD_SPEED, v));
        return ProbeResult.NONE.withFigures(new Measured(speeds)).withRawText(rawText(server, load));
    }

    /** Each probe in the window, each side's speed, and the reference's cost per second of window on each CPU. */
    private String rawText(OptionalDouble server, OptionalDouble load) {
        StringBuilder raw = new StringBuilder(String.format(Locale.ROOT, "%nmachine speed (a %d ms loop timed in its thread's"
                + " CPU time on each CPU of the run, every %d ms, against that CPU's fastest tenth so far):", MachineSpeed.LOOP_MS,
                reference.period().toMillis()));
        List<String> probes = new ArrayList<>();
        for (SpeedReference.Reading r : reference.within(reference.cpus(), start, end)) {
            probes.add(String.format(Locale.ROOT, "CPU %d at +%.2f s %.3f ms (%.3f)", r.cpu(), (r.startNanos() - start) / 1e9,
                    r.cpuNanos() / 1e6, reference.speedOf(r)));
        }
        raw.append(probes.isEmpty() ? " no probe in the window" : " " + String.join(", ", probes)).append('\n');
        raw.append(String.format(Locale.ROOT, "server CPUs %s: %s; load CPUs %s: %s%n", serverCpus.isEmpty() ? "(not here)"
                : serverCpus, side(server), loadCpus, side(load)));
        double seconds = (end - start) / 1e9;
        double perCpu = seconds > 0 ? (cpuAfter - cpuBefore) / 1e6 / seconds / reference.cpus().size() : Double.NaN;
        raw.append(String.format(Locale.ROOT, "the reference's threads used %.2f ms of CPU per second of the window on each"
                + " CPU (%.2f %% of a CPU)%n", perCpu, perCpu / 10));
        return raw.toString();
    }

    private static String side(OptionalDouble speed) {
        return speed.isPresent() ? String.format(Locale.ROOT, "%.3f of full speed", speed.getAsDouble()) : "not known";
    }
}
