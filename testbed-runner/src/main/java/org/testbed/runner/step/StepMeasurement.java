package org.testbed.runner.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.testbed.driver.LoadDriver;
import org.testbed.driver.LoadResult;
import org.testbed.driver.NioHttpDriver;
import org.testbed.driver.SecondListener;
import org.testbed.driver.WindowWatcher;
import org.testbed.jmeter.LoadEngines;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runfolder.FaultSpec;
import org.testbed.runner.fault.FaultProbe;
import org.testbed.runner.probe.Probe;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runner.flame.Flamegraphs;
import org.testbed.runner.probe.ProbeResult;
import org.testbed.runner.probe.ProbedStep;
import org.testbed.runner.probe.Probes;
import org.testbed.runner.probe.Window;
import org.testbed.runner.problem.Problems;

/**
 * Measures one step once: reads the server before, applies the load for the step's window, reads
 * the server after, and turns it into a {@link Sample} whose raw file and interval log (the
 * latencies second by second, {@code .hlog} beside the raw file) are written at once. Whatever else
 * the run asked to observe (a flight recording, a flame graph, perf's counters, the metrics scrape,
 * the GC timeline, the bytes on the wire) is a {@link org.testbed.runner.probe.Probe}: the step
 * tells its probes of each of its moments in turn and takes what they made of it, without knowing
 * which they are.
 */
final class StepMeasurement {
    private final RunSettings settings;
    private final Probes.Choice probes;
    private final ServerHosting hosting;
    private final Problems problems;
    private final Optional<Pricing> pricing;
    private final LoadDrivers drivers;
    private final SampleRecords records;
    private final MachineReference machine;

    /**
     * @param flamegraphs the profiler, or null without {@code --flamegraph}
     * @param hosting where the runner's own memcached (and a proxy in front of it) is, whose CPU counts on the load
     *                side and which {@code --fault} hits
     * @param problems where a failure that does not stop the step (a lost flame graph) is reported
     * @param pricing the run's price on the server's machine, or empty without one
     * @param loadHosts with {@code --load-hosts}: JMeter's engines there, or null
     * @param machine the run's machine speed reference, read beside every window, and what a slow window becomes
     */
    StepMeasurement(RunSettings settings, Flamegraphs flamegraphs, ServerHosting hosting, Problems problems,
                    Optional<Pricing> pricing, LoadEngines loadHosts, MachineReference machine) {
        this.machine = machine;
        this.settings = settings;
        this.probes = new Probes.Choice(settings.observation().jfr(), Optional.ofNullable(flamegraphs),
                settings.observation().counters(), settings.conditions().metrics());
        this.hosting = hosting;
        this.problems = problems;
        this.pricing = pricing;
        this.drivers = new LoadDrivers(settings, loadHosts);
        this.records = new SampleRecords(settings, pricing);
    }

    /** {@code live}: told each second of the window while it runs (testbed-nio's steps only). */
    Sample measure(ServedVariant served, SamplePlan plan, SecondListener live) throws IOException, InterruptedException {
        LoadDriver driver = drivers.driverFor(plan.workload(), plan.level());
        ProbedStep step = new ProbedStep(served.variant().name(), slug(plan), settings.output().out(),
                plan.key(served.variant().name(), settings.conditions()), plan.repeat(), plan.iteration());
        Files.createDirectories(step.file("raw", ".txt").getParent());
        List<Probe> last = new ArrayList<>(machine.probes());
        last.addAll(faults(plan, step));
        Probes observed = Probes.forStep(probes, served.server(), step, last);
        try {
            return measure(served, plan, driver, observed, live, step);
        } finally {
            // What went wrong with a probe is said whether or not the step could be measured.
            problems.reportAll(observed.problems());
        }
    }

    private Sample measure(ServedVariant served, SamplePlan plan, LoadDriver driver, Probes observed, SecondListener live,
                           ProbedStep step) throws IOException, InterruptedException {
        observed.beforeStep();
        List<Long> storePids = hosting.storePids();
        WindowStart opened = new WindowStart(served, storePids, observed);
        Window window = applyLoad(driver, served, plan, observed, live, opened);
        ServerSnapshot before = opened.before;
        String startedAt = opened.startedAt;
        // A restart fault leaves another memcached behind: its CPU is not the difference of two processes'.
        ServerSnapshot after = ServerSnapshot.after(served.server(),
                hosting.storePids().equals(storePids) ? storePids : List.of());
        observed.afterStep(window);
        ProbeResult probed = observed.result();
        SampleReading reading = new SampleReading(startedAt, window.result(),
                ServerAccount.of(before, after, window.result(), settings));
        Path rawFile = step.file("raw", ".txt");
        Sample sample = records.of(served, plan, reading, probed, step.relative(rawFile));
        writeIntervals(served, plan, reading, step.file("raw", ".hlog"));
        Files.writeString(rawFile, RawStepLog.text(served, plan, reading, settings.servers().pinning().loadCpuCount())
                + probed.rawText(), StandardCharsets.UTF_8);
        return sample;
    }

    /**
     * What the step reads when its window opens: the server's counters and the probes' start. With the
     * in-JVM driver that is after the settle, on the window's own connections; with another driver, just
     * before it starts.
     */
    private static final class WindowStart implements Runnable {
        private final ServedVariant served;
        private final List<Long> storePids;
        private final Probes observed;
        ServerSnapshot before;
        String startedAt;
        Instant at;

        WindowStart(ServedVariant served, List<Long> storePids, Probes observed) {
            this.served = served;
            this.storePids = storePids;
            this.observed = observed;
        }

        @Override
        public void run() {
            try {
                before = ServerSnapshot.before(served.server(), storePids);
                at = Instant.now();
                startedAt = at.truncatedTo(ChronoUnit.MILLIS).toString();
                observed.beforeWindow();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted as the window opened", e);
            }
        }
    }

    /**
     * The measured window: the load applied (after the run's settle on its own connections with the in-JVM
     * driver: a window of fresh connections started below its steady rate, the first second at 0.85 of
     * the second in 10 of 12 windows of the mix on servlet-tomcat-async, and a server thawed for its turn
     * refills its caches in it), the probes told when it opens and when it closes however it ends.
     */
    private Window applyLoad(LoadDriver driver, ServedVariant served, SamplePlan plan, Probes observed, SecondListener live,
                             WindowStart opened) throws IOException, InterruptedException {
        int loadCpus = settings.servers().pinning().loadCpuCount();
        Instant end;
        LoadResult result;
        try {
            if (driver instanceof NioHttpDriver nio) {
                result = nio.run(served.target(), plan.workload(), plan.level(), settings.load().duration(), loadCpus,
                        WindowWatcher.NEVER, live, settings.load().settle(), opened);
            } else {
                opened.run();
                result = driver.run(served.target(), plan.workload(), plan.level(), settings.load().duration(), loadCpus);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            end = Instant.now();
            observed.afterWindow();
        }
        return new Window(opened.at == null ? end : opened.at, end, result);
    }

    /** The step's faults of the store ({@code --fault}), on the runner's own memcached; none without. */
    private List<Probe> faults(SamplePlan plan, ProbedStep step) {
        List<FaultSpec> specs = settings.conditions().faults();
        if (specs.isEmpty()) {
            return List.of();
        }
        MemcachedProcess memcached = hosting.ownMemcached().orElseThrow(() -> new IllegalStateException(
                "--fault needs the runner's own memcached; " + FaultSpec.NOT_OWN_STORE));
        Duration leadIn = plan.level().isOpen() ? Duration.ofNanos(NioHttpDriver.OPEN_LEAD_IN_NANOS) : Duration.ZERO;
        return List.of(new FaultProbe(specs, memcached, pid -> {
            try {
                hosting.memcachedRestarted(pid);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, hosting.storeProxy().orElse(null), leadIn, step.file("raw", ".hlog")));
    }

    /** The latencies second by second, for a driver that keeps them so ({@code .hlog}). */
    private void writeIntervals(ServedVariant served, SamplePlan plan, SampleReading reading, Path hlog) throws IOException {
        LoadResult result = reading.result();
        if (result.intervals().isEmpty()) {
            return;
        }
        result.intervals().write(hlog, List.of(String.format(Locale.ROOT,
                "variant %s (%s), scenario %s, level %s, conditions %s, repeat %d, iteration %d, driver %s, started %s",
                served.variant().name(), served.variant().mode(), plan.workload().name(), plan.level().label(),
                settings.conditions().label(), plan.repeat(), plan.iteration(), result.driver(), reading.startedAt())));
    }

    /** What the sample's files are named after: {@code mix-c64}, with the conditions, fork and iteration when the run has several. */
    private String slug(SamplePlan plan) {
        return plan.workload().name() + "-" + ResultRow.StepKey.levelSlug(plan.level().concurrency(), plan.level().rate())
                + settings.conditionsSuffix() + (settings.load().repeat() > 1 ? "-r" + plan.repeat() : "")
                + (settings.load().iterations() > 1 ? "-i" + plan.iteration() : "")
                + (plan.retake() > 0 ? "-again" + plan.retake() : "");
    }

    /** What a window the machine ran slow in becomes ({@code --slow-machine}). */
    SlowWindows slowWindows() {
        return machine.rule();
    }

    /** The run's price on the server's machine, or empty without one. */
    Optional<Pricing> pricing() {
        return pricing;
    }
}
