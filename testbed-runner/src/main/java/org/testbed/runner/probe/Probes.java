package org.testbed.runner.probe;

import java.util.List;
import org.testbed.driver.LoadResult;
import org.testbed.runfolder.csv.Measured;

/** The probes of one measured window, told of it together, their figures summed up into one {@link Measured}. */
public final class Probes {
    private final List<Probe> probes;

    private Probes(List<Probe> probes) {
        this.probes = List.copyOf(probes);
    }

    /** The probes every step has. */
    public static Probes forStep() {
        return new Probes(List.of(new WireBytes()));
    }

    public void beforeWindow() {
        probes.forEach(Probe::beforeWindow);
    }

    public void afterWindow(LoadResult result) {
        probes.forEach(p -> p.afterWindow(result));
    }

    /** Every probe's figures of the window. */
    public Measured summarise() {
        return probes.stream().map(Probe::summarise).reduce(Measured.NONE, Measured::and);
    }
}
