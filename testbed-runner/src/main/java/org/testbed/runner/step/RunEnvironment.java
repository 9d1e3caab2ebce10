package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.driver.Level;
import org.testbed.driver.WrkDriver;
import org.testbed.jmeter.JMeterDriver;
import org.testbed.jmeter.JMeterHome;
import org.testbed.runfolder.environment.CounterSetup;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.environment.JdkSection;
import org.testbed.runfolder.environment.PinningSection;
import org.testbed.runfolder.environment.RunPlan;
import org.testbed.runfolder.environment.RunSection;
import org.testbed.runfolder.environment.RunnerJvm;
import org.testbed.runfolder.environment.Tools;
import org.testbed.runner.counters.PerfStat;
import org.testbed.runner.env.Environment;
import org.testbed.toxiproxy.ToxiproxyBuild;
import org.testbed.variant.Variant;

/**
 * The run's {@code environment.json}: the settings, the machine, the pinning, the JDKs, the tools
 * as the run starts ({@link #of}), and the run's outcome at its end ({@link #finished}).
 */
final class RunEnvironment {
    private RunEnvironment() {
    }

    static EnvironmentRecord of(RunSettings settings, Instant started, Map<Variant, Path> javas, JdkChoice jdks) throws IOException {
        List<Path> distinctJavas = javas.values().stream().distinct().toList();
        List<JdkSection> jdkSections = new ArrayList<>();
        for (Path java : distinctJavas) {
            jdkSections.add(Environment.jdk(jdks.info(java)));
        }
        Map<String, String> variantJdks = new LinkedHashMap<>();
        javas.forEach((v, j) -> variantJdks.put(v.name(), jdks.label(j)));
        return EnvironmentRecord.oneMachine(RunSection.planned(plan(settings, started), distinctJavas.size() > 1),
                pinning(settings.servers().pinning()), Environment.machine(), jdkSections, RunnerJvm.current(), variantJdks,
                tools(settings), Environment.manifest(settings.servers().variants()));
    }

    /**
     * The environment at the end of the run: when it ended, how long it took, how flame graphs were
     * taken and what perf could count (when asked for), what went wrong and which variants were left out.
     */
    static EnvironmentRecord finished(EnvironmentRecord env, RunSettings settings, Instant started,
                                      Optional<String> flamegraphs, List<String> problems, List<String> skipped) {
        Instant now = Instant.now();
        Optional<CounterSetup> counters = Optional.empty();
        if (settings.observation().counters()) {
            CounterSetup here = PerfStat.describe();
            counters = Optional.of(settings.serverHost().isEmpty() ? here
                    : here.ranOn("perf stat ran on the server's machine; perf and perf_event_paranoid above are this"
                    + " machine's, server_machine.perf_event_paranoid is the server's"));
        }
        return env.withRun(env.run().finished(now.truncatedTo(ChronoUnit.SECONDS).toString(),
                Duration.between(started, now).toSeconds(), flamegraphs, counters, problems, skipped));
    }

    private static RunPlan plan(RunSettings settings, Instant started) {
        RunSettings.Load load = settings.load();
        Map<String, List<String>> scenarios = new LinkedHashMap<>();
        load.scenarios().forEach((name, levels) -> scenarios.put(name, levels.stream().map(Level::label).toList()));
        return new RunPlan(settings.output().runId(), started.toString(), settings.output().profile(),
                List.copyOf(settings.output().commandLine()), scenarios, seconds(load.duration()), seconds(load.warmup()),
                seconds(load.warmupAtLeast()), load.repeat(), load.iterations(), load.driver(), settings.conditionsLabel(),
                settings.servers().threads(), load.delayMs(), load.payloadSize(), load.maxConnections(),
                load.timeout().toSeconds(), load.saturationPct(), List.copyOf(settings.servers().jvmArgs()),
                settings.output().build());
    }

    /** Seconds with their fraction: 5.5 for 5500 ms. */
    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    private static PinningSection pinning(Pinning pinning) {
        return new PinningSection(pinning.serverCpus(), pinning.memcachedCpus(), pinning.loadCpus(), pinning.describe(),
                Pinning.allowedCpus().toString(), Optional.empty());
    }

    private static Tools tools(RunSettings settings) {
        Path wrk = WrkDriver.find();
        String jmeter = Tools.NOT_USED;
        if (settings.load().driver().equals(JMeterDriver.NAME)) {
            JMeterHome home = JMeterHome.find(settings.output().root());
            jmeter = "Apache JMeter " + home.version() + " from " + home.dir() + settings.loadHosts()
                    .map(h -> ", on " + h.destinations().size() + " load host(s): " + String.join(", ", h.destinations()))
                    .orElse(", here");
        }
        return new Tools(wrk == null ? "not installed" : Environment.command(wrk.toString(), "-v").lines().findFirst().orElse(""),
                Environment.command("memcached", "-V").strip(), Pinning.tasksetAvailable(), jmeter,
                settings.storeLatencies() ? "toxiproxy " + ToxiproxyBuild.VERSION : Tools.NOT_USED);
    }
}
