package org.testbed.runner.capacity;

import org.testbed.runfolder.capacity.Sla;
/**
 * What {@code --sla} asks of a run: instead of the scenarios' levels, a {@link CapacitySearch} per
 * variant and scenario for the highest rate that meets {@code sla}.
 *
 * @param low the first rate offered (requests per second)
 * @param high the highest rate offered
 * @param precision the search ends when the rates met and missed are this close (a fraction of the rate met)
 */
public record CapacityPlan(Sla sla, double low, double high, double precision) {
    /** Probes a search takes at most: the doublings from low to high, then the bisection's halvings. */
    public int maxProbes() {
        int doublings = (int) Math.ceil(Math.log(high / low) / Math.log(2)) + 1;
        int halvings = (int) Math.ceil(Math.log(1 / precision) / Math.log(2));
        return doublings + halvings;
    }

    public CapacitySearch newSearch() {
        return new CapacitySearch(sla, low, high, precision);
    }
}
