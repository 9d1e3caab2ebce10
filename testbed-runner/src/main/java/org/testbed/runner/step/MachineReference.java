package org.testbed.runner.step;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.testbed.runner.probe.MachineSpeedProbe;
import org.testbed.runner.probe.Probe;
import org.testbed.runner.proc.MachineSpeed;
import org.testbed.runner.proc.SpeedReference;

/**
 * The run's machine speed reference ({@link SpeedReference}) with the CPUs of each side and the rule
 * for slow windows ({@link SlowWindows}): started once when the run starts, told of every window by
 * a {@link MachineSpeedProbe}, stopped when the run ends.
 *
 * <p>Its CPUs are every CPU the run uses here: the server's and the load's (driver and memcached).
 * A server on another machine ({@code --server-host}) has its CPUs there, untimed: only the load
 * side is read. Without pinning (one CPU) each allowed CPU is timed and counts on both sides; without
 * {@code taskset}, one thread times whichever CPU it gets.
 *
 * @param reference the threads timing the loop; empty when the run could not start them (said once)
 * @param serverCpus the CPUs whose probes are the server side's
 * @param loadCpus the CPUs whose probes are the load side's
 * @param rule what a slow window becomes
 */
record MachineReference(Optional<SpeedReference> reference, Set<Integer> serverCpus, Set<Integer> loadCpus,
                        SlowWindows rule) implements AutoCloseable {
    /**
     * How often each CPU is probed. With the probe 250 ms into each window ({@link MachineSpeedProbe}), a 3 s
     * window (the default's) holds two probes a CPU, 20 ms of loop: 0.7 % of a CPU; a 2 s window one, 0.5 %.
     */
    static final Duration PERIOD = Duration.ofSeconds(2);
    /** A CPU that stands for "whichever the thread gets" when the reference cannot pin. */
    static final int ANY_CPU = -1;

    /** No reference, every window kept: a measurement outside a run (tests of the parts). */
    static final MachineReference NONE = new MachineReference(Optional.empty(), Set.of(), Set.of(), SlowWindows.OFF);

    /**
     * Starts the reference on the run's CPUs, its slow windows judged against {@code settings}'
     * {@code --slow-machine} and {@code --budget} (counted from {@code runStart}, {@link System#nanoTime}).
     */
    static MachineReference start(RunSettings settings, long runStart) throws IOException, InterruptedException {
        Pinning p = settings.servers().pinning();
        boolean remote = settings.serverHost().isPresent();
        boolean taskset = Pinning.tasksetAvailable();
        Set<Integer> server = new LinkedHashSet<>();
        Set<Integer> load = new LinkedHashSet<>();
        if (!taskset) {
            server.add(ANY_CPU);
            load.add(ANY_CPU);
        } else if (p.loadCpus().isEmpty() && p.serverCpus().isEmpty()) {
            server.addAll(Pinning.allowedCpusAtStart());
            load.addAll(Pinning.allowedCpusAtStart());
        } else {
            server.addAll(p.serverCpus().isEmpty() ? Pinning.allowedCpusAtStart() : Pinning.parse(p.serverCpus()));
            load.addAll(p.loadCpus().isEmpty() ? Pinning.allowedCpusAtStart() : Pinning.parse(p.loadCpus()));
            if (!p.memcachedCpus().isEmpty()) {
                load.addAll(Pinning.parse(p.memcachedCpus()));
            }
        }
        if (remote) {
            server.clear();
        }
        Set<Integer> all = new LinkedHashSet<>(server);
        all.addAll(load);
        SpeedReference reference = SpeedReference.start(new ArrayList<>(all), PERIOD, taskset
                ? (tid, cpu) -> Pinning.pinThread(tid, Integer.toString(cpu)) : (tid, cpu) -> { });
        OptionalLong deadline = settings.precision().active() && settings.precision().budget().isPresent()
                ? OptionalLong.of(runStart + settings.precision().budget().get().toNanos()) : OptionalLong.empty();
        return new MachineReference(Optional.of(reference), Set.copyOf(server), Set.copyOf(load),
                new SlowWindows(settings.observation().slowMachine(), deadline));
    }

    /** The probe that reads a window's speed, or none without a reference. */
    List<Probe> probes() {
        return reference.<List<Probe>>map(r -> List.of(new MachineSpeedProbe(r, serverCpus, loadCpus))).orElse(List.of());
    }

    /**
     * What the run is told once it starts: {@code machine speed: a 10 ms loop on CPU 0 (server) and 1 (load) every
     * 2 s; a window under 0.9 of full speed is left out and measured again}.
     */
    String describe() {
        if (reference.isEmpty()) {
            return "machine speed: not read";
        }
        return String.format(Locale.ROOT, "machine speed: a %d ms loop timed on %s every %.1f s, each against its CPU's"
                        + " fastest tenth (samples.csv's server_speed, load_speed); %s", MachineSpeed.LOOP_MS, sides(),
                PERIOD.toMillis() / 1000.0, rule.active() ? String.format(Locale.ROOT, "a window under %s of full speed on"
                        + " either side is left out of its step's figure and measured again (--slow-machine)",
                        trim(rule.ratio())) : "every window kept (--slow-machine 0)");
    }

    private String sides() {
        if (serverCpus.contains(ANY_CPU)) {
            return "one thread, not pinned (no taskset)";
        }
        return (serverCpus.isEmpty() ? "" : "CPU " + Pinning.format(List.copyOf(serverCpus)) + " (server)"
                + (loadCpus.isEmpty() ? "" : " and ")) + (loadCpus.isEmpty() ? "" : "CPU " + Pinning.format(List.copyOf(loadCpus))
                + " (load)");
    }

    /**
     * What the reference cost over {@code nanos} of the run, its start apart: {@code machine speed reference: 74 probes
     * on 2 CPU(s); starting took 120 ms of CPU on each, then 6.9 ms of CPU per second on each (0.69 % of a CPU)}.
     */
    String cost(long nanos) {
        if (reference.isEmpty() || nanos <= 0) {
            return "";
        }
        SpeedReference r = reference.get();
        int cpus = r.cpus().size();
        double perCpu = (r.cpuNanos() - r.startCpuNanos()) / 1e6 / (nanos / 1e9) / cpus;
        int probes = r.cpus().stream().mapToInt(cpu -> r.readings(cpu).size()).sum();
        return String.format(Locale.ROOT, "machine speed reference: %d probes on %d CPU(s); starting took %.0f ms of CPU on"
                        + " each, then %.2f ms of CPU per second of the run on each (%.2f %% of a CPU)", probes, cpus,
                r.startCpuNanos() / 1e6 / cpus, perCpu, perCpu / 10);
    }

    private static String trim(double v) {
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** Stops the reference's threads. */
    @Override
    public void close() throws InterruptedException {
        if (reference.isPresent()) {
            reference.get().close();
        }
    }
}
