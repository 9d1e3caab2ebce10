package org.testbed.scenario;

import java.util.List;

/**
 * The operations a step's figures are broken down by: one short, stable label per kind of request of
 * the workload, and which of them a request is. The one place the rule lives, for every driver (the
 * runner's figures per operation, the Gatling simulations' request names):
 *
 * <ul>
 *   <li>the mix: the HTTP method ({@code GET}, {@code POST}, {@code PUT}, {@code DELETE}). Each of its
 *       request names stands for one method ({@code mix-get} is every GET), so the method says the
 *       same in the terms the mix's weights are given in ({@code GET:POST:PUT:DELETE}, {@link
 *       org.testbed.scenario.Mix}); a PUT drawn and sent as a DELETE (the churn's swap) counts as the
 *       DELETE it was;</li>
 *   <li>the journey: its step names ({@code create}, {@code read}, {@code update}, {@code read-updated},
 *       {@code delete}, {@code read-deleted}): three of its steps are GETs, one of them answered 404,
 *       and a fixed sequence has a name for each step already;</li>
 *   <li>a single route (plaintext, json, delay): one operation, named after the route.</li>
 * </ul>
 *
 * A label never holds a comma, a space or a line break: it is a tag of the interval log too.
 * {@link #indexOf} runs once per request, so it compares an enum or a few constant strings (the
 * names a journey's requests carry are these very constants) and allocates nothing. Other drivers
 * (JMeter's plans) label their requests by the same rule, so operations.csv reads the same whoever
 * measured.
 */
public final class Operations {
    /** The mix's methods in the order its weights are given in, {@code GET:POST:PUT:DELETE}. */
    private static final List<HttpMethod> MIX_ORDER = List.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT,
            HttpMethod.DELETE);

    private final List<String> labels;
    /** The mix: each method's operation, by {@link HttpMethod#ordinal()}; null for the other workloads. */
    private final int[] byMethod;

    private Operations(List<String> labels, int[] byMethod) {
        this.labels = List.copyOf(labels);
        this.byMethod = byMethod;
    }

    public static Operations of(Workload workload) {
        if (workload instanceof ReadHeavyMix) {
            int[] byMethod = new int[HttpMethod.values().length];
            for (int i = 0; i < MIX_ORDER.size(); i++) {
                byMethod[MIX_ORDER.get(i).ordinal()] = i;
            }
            return new Operations(MIX_ORDER.stream().map(HttpMethod::name).toList(), byMethod);
        }
        if (workload instanceof CrudJourney) {
            return new Operations(CrudJourney.STEPS, null);
        }
        if (workload instanceof Workload.Fixed fixed) {
            return new Operations(List.of(fixed.spec().name()), null);
        }
        throw new IllegalArgumentException("no operations defined for the workload " + workload.name());
    }

    /** The labels, in the workload's order. */
    public List<String> labels() {
        return labels;
    }

    public int size() {
        return labels.size();
    }

    /** Which operation {@code spec} is, or -1 for a request of none (it counts in the step's total only). */
    public int indexOf(RequestSpec spec) {
        if (byMethod != null) {
            return byMethod[spec.method().ordinal()];
        }
        if (labels.size() == 1) {
            return 0;
        }
        String name = spec.name();
        for (int i = 0; i < labels.size(); i++) {
            if (labels.get(i).equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
