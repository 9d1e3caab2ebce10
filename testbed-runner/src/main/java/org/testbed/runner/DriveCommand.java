package org.testbed.runner;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.testbed.driver.Level;
import org.testbed.driver.LoadDriver;
import org.testbed.driver.LoadResult;
import org.testbed.driver.NioHttpDriver;
import org.testbed.driver.Scenarios;
import org.testbed.driver.SecondListener;
import org.testbed.driver.Target;
import org.testbed.driver.WindowWatcher;
import org.testbed.driver.WrkDriver;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.jmeter.JMeterDriver;
import org.testbed.jmeter.JMeterHome;
import org.testbed.runner.step.Levels;
import org.testbed.runner.step.LiveLine;
import org.testbed.runner.step.Pinning;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Preloader;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * One step against a server that is already running (loopback only), with a chosen driver: how
 * the drivers were compared, and a quick way to poke a variant started with {@code ./testbed serve}.
 */
@Command(name = "drive", mixinStandardHelpOptions = true, hidden = true,
        description = "Send one step of load to an already running server on 127.0.0.1 and print what the driver measured.")
final class DriveCommand implements Callable<Integer> {
    private static final int PRELOAD_IN_FLIGHT = 16;

    @ParentCommand
    Main main;

    @Option(names = "--url", required = true, paramLabel = "URL",
            description = "e.g. http://127.0.0.1:8080, or https://... for a server started with --tls (loopback only)")
    URI url;

    @Option(names = "--scenario", defaultValue = "mix", paramLabel = "NAME", description = "journey, mix, plaintext, json, delay")
    String scenario;

    @Option(names = "--concurrency", paramLabel = "N", description = "Closed model users")
    Integer concurrency;

    @Option(names = "--rate", paramLabel = "N", description = "Open model arrivals per second")
    Double rate;

    @Option(names = "--duration", defaultValue = "10s", paramLabel = "TIME")
    String duration;

    @Option(names = "--driver", defaultValue = NioHttpDriver.NAME, paramLabel = "NAME", description = "testbed-nio, wrk or jmeter")
    String driver;

    @Option(names = "--load-cpus", paramLabel = "LIST", description = "Pin the driver (taskset list)")
    String loadCpus;

    @Option(names = "--warmup", defaultValue = "5s", paramLabel = "TIME",
            description = "Unmeasured load first, in this JVM: the in-JVM driver is measured JIT-compiled, like in a run")
    String warmup;

    @Option(names = "--delay-ms", defaultValue = "150", paramLabel = "MS")
    int delayMs;

    @Option(names = "--gzip", description = "Ask for gzip and check the inflated bodies (testbed-nio only)")
    boolean gzip;

    @Option(names = "--raw", description = "Print the driver's raw output too")
    boolean raw;

    @Override
    public Integer call() throws Exception {
        Target target = Target.of(url);
        Level level = rate != null ? Level.open(rate) : Level.closed(concurrency != null ? concurrency : 64);
        int cpus = Runtime.getRuntime().availableProcessors();
        if (loadCpus != null) {
            Pinning.pin(ProcessHandle.current().pid(), loadCpus);
            cpus = Pinning.parse(loadCpus).size();
        }
        LoadDriver d = loadDriver();
        String runId = KeySpace.newRunId();
        Scenarios scenarios = new Scenarios(runId, 100, delayMs, 42L);
        Workload workload = scenarios.workload(scenario, "drive");
        if (!d.supports(workload, level)) {
            throw new IllegalArgumentException("--driver " + driver + " cannot drive " + scenario + " at " + level.label());
        }
        preload(scenarios.preload(workload));
        LiveLine live = LiveLine.of(System.out);
        if (!Levels.duration(warmup).isZero()) {
            run(d, target, scenarios.workload(scenario, "drive-warm"), level, Levels.duration(warmup), cpus,
                    live.during("warm-up " + scenario + " " + level.label(), Levels.duration(warmup)));
        }
        LoadResult r = run(d, target, workload, level, Levels.duration(duration), cpus,
                live.during(scenario + " " + level.label(), Levels.duration(duration)));
        live.clear();
        print(d, level, r, cpus, target.tls());
        return 0;
    }

    /** {@code --driver}, checked: a wrk that is not installed says so before anything runs. */
    private LoadDriver loadDriver() throws IOException {
        Path wrk = null;
        if (driver.equals(WrkDriver.NAME)) {
            wrk = WrkDriver.find();
            if (wrk == null) {
                throw new IllegalStateException("--driver wrk: no wrk on PATH (install it, for example"
                        + " 'apt-get install wrk', or set WRK_BIN)");
            }
        } else if (!driver.equals(NioHttpDriver.NAME) && !driver.equals(JMeterDriver.NAME)) {
            throw new IllegalArgumentException("--driver " + driver + ": not a driver; use " + NioHttpDriver.NAME
                    + ", " + WrkDriver.NAME + " or " + JMeterDriver.NAME);
        }
        return switch (driver) {
            case WrkDriver.NAME -> new WrkDriver(wrk, Files.createTempDirectory("testbed-drive"), Levels.duration("10s"));
            case JMeterDriver.NAME -> new JMeterDriver(
                    JMeterHome.find(main != null ? main.root() : RepositoryRoot.resolve(null)).require(),
                    Files.createTempDirectory("testbed-drive"), Levels.duration("10s"));
            default -> new NioHttpDriver(Levels.duration("10s"), 4096, gzip);
        };
    }

    /** Writes the scenario's items first (a scenario that reads them finds them); a server that refuses stops the command. */
    private void preload(List<RequestSpec> preload) throws IOException, InterruptedException {
        if (preload.isEmpty()) {
            return;
        }
        Preloader.Outcome preloaded = Preloader.run(url, preload, PRELOAD_IN_FLIGHT);
        if (preloaded.refused()) {
            throw new IllegalStateException("nothing answers at " + url + ": " + preloaded.firstFailure());
        }
        if (preloaded.failed() > 0) {
            // The step still runs: its own error count shows what the missing items cost.
            System.err.println("drive: preload: " + preloaded.describe());
        }
    }

    /** The window's figures, per operation when it has several, and the driver's raw output with {@code --raw}. */
    private void print(LoadDriver d, Level level, LoadResult r, int cpus, boolean tls) {
        System.out.printf(Locale.ROOT, "%s %s %s: %d requests, %d errors, %.0f req/s, p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f ms,"
                        + " driver CPU %.0f ms = %.1f%% of %d CPU(s)%n", d.name(), scenario, level.label(), r.requests(), r.errors(),
                r.rps(), r.latency().p50(), r.latency().p90(), r.latency().p99(), r.latency().p999(), r.latency().max(),
                r.driverCpuMs(), 100 * r.driverCpuMs() / (r.seconds() * 1000 * cpus), cpus);
        if (!r.operationsUnavailable().isEmpty()) {
            System.out.println("  per operation: " + OperationRecord.notAvailable(r.operationsUnavailable()));
        } else if (r.operations().size() > 1) {
            for (LoadResult.OperationFigures op : r.operations()) {
                System.out.printf(Locale.ROOT, "  %-12s %d requests, %d errors, %.0f req/s, p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f ms%n",
                        op.name(), op.requests(), op.errors(), op.rps(), op.latency().p50(), op.latency().p90(),
                        op.latency().p99(), op.latency().p999(), op.latency().max());
            }
        }
        if (tls || gzip) {
            System.out.printf(Locale.ROOT, "TLS handshakes %d, gzip responses %d%n", r.tlsHandshakes(), r.gzipResponses());
        }
        if (raw) {
            System.out.println(r.raw());
        }
    }

    /** One window; testbed-nio tells {@code live} each second of it (wrk knows none before it ends). */
    private static LoadResult run(LoadDriver d, Target target, Workload workload, Level level, Duration length, int cpus,
                                  SecondListener live) throws IOException, InterruptedException {
        return d instanceof NioHttpDriver nio
                ? nio.run(target, workload, level, length, cpus, WindowWatcher.NEVER, live)
                : d.run(target, workload, level, length, cpus);
    }
}
