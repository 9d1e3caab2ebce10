package org.testbed.runner.step;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.testbed.driver.Level;
import org.testbed.driver.LoadDriver;
import org.testbed.driver.NioHttpDriver;
import org.testbed.driver.WrkDriver;
import org.testbed.jmeter.JMeterDriver;
import org.testbed.jmeter.JMeterHome;
import org.testbed.jmeter.LoadEngines;
import org.testbed.scenario.Workload;

/**
 * The load driver of each step: the one {@code --driver} names where it can drive the step, else
 * testbed-nio, the run saying why once per reason.
 */
final class LoadDrivers {
    private final RunSettings settings;
    private final LoadEngines loadHosts;
    /** The reasons already printed for steps the chosen driver cannot run. */
    private final Set<String> fallbacks = new HashSet<>();

    /** @param loadHosts with {@code --load-hosts}: JMeter's engines there, or null */
    LoadDrivers(RunSettings settings, LoadEngines loadHosts) {
        this.settings = settings;
        this.loadHosts = loadHosts;
    }

    LoadDriver driverFor(Workload workload, Level level) {
        NioHttpDriver nio = new NioHttpDriver(settings.load().timeout(), settings.load().maxConnections(), settings.conditions().gzip());
        // Neither wrk's script nor the JMeter plan inflates gzip bodies: with --gzip every step is testbed-nio's.
        if (settings.conditions().gzip()) {
            return nio;
        }
        LoadDriver other = chosen();
        // wrk has no open model and cannot keep the journey's order, nor can JMeter's open arrivals:
        // those steps use testbed-nio, and the run says why once per reason.
        if (other == null || other.supports(workload, level)) {
            return other != null ? other : nio;
        }
        String why = other instanceof JMeterDriver jmeter ? jmeter.unsupported(workload, level)
                : other.name() + " cannot drive " + workload.name() + " at " + level.label();
        if (fallbacks.add(why)) {
            System.out.println("-- " + why + ": testbed-nio measures that step");
        }
        return nio;
    }

    /** The driver {@code --driver} names, or null for testbed-nio. */
    private LoadDriver chosen() {
        return switch (settings.load().driver()) {
            case WrkDriver.NAME -> {
                Path wrk = WrkDriver.find();
                if (wrk == null) {
                    throw new IllegalStateException("--driver wrk: wrk is not installed (apt-get install wrk)");
                }
                yield new WrkDriver(wrk, settings.output().out().resolve("wrk"), settings.load().timeout());
            }
            case JMeterDriver.NAME -> new JMeterDriver(JMeterHome.find(settings.output().root()).require(),
                    settings.output().out().resolve("jmeter"), settings.load().timeout(), loadHosts, settings.load().pacing());
            default -> null;
        };
    }
}
