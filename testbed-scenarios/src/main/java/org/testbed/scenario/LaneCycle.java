package org.testbed.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * A lane's requests computed ahead, for drivers that replay a fixed list instead of asking a
 * {@link RequestStream} request by request (wrk's Lua script, JMeter's per-thread data files). The
 * list can be replayed in a loop as long as the load lasts: it leaves the store as it found it.
 *
 * <ul>
 *   <li>The mix: the lane's first {@code n} requests, then deletes of the churn keys it still holds,
 *       so the next pass's creates find them gone.</li>
 *   <li>The CRUD journey: whole journeys only ({@code n} rounded up to a multiple of six), each of
 *       which deletes what it created; a pass that stopped inside a journey would create its key
 *       again on the next pass (a 409).</li>
 *   <li>A single route: {@code n} times the same request.</li>
 * </ul>
 *
 * Every request is taken as answered as expected ({@link RequestStream#completed} with {@code ok}):
 * a replayed list cannot react to a failure, so a failed create makes its later delete fail too.
 */
public final class LaneCycle {
    private LaneCycle() {
    }

    /** The requests of lane {@code lane}'s cycle: about {@code n} from its stream, then what makes the cycle repeatable. */
    public static List<RequestSpec> of(Workload workload, long lane, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a cycle needs at least one request, not " + n);
        }
        int length = workload instanceof CrudJourney ? roundUp(n, CrudJourney.STEPS.size()) : n;
        RequestStream stream = workload.stream(lane);
        List<RequestSpec> cycle = new ArrayList<>(length + 16);
        for (int i = 0; i < length; i++) {
            RequestSpec spec = stream.next();
            stream.completed(spec, true);
            cycle.add(spec);
        }
        if (stream instanceof ReadHeavyMix.Lane mixLane) {
            for (String id : mixLane.outstandingKeys()) {
                cycle.add(Requests.delete(ReadHeavyMix.DELETE, id));
            }
        }
        return cycle;
    }

    private static int roundUp(int n, int multiple) {
        return (n + multiple - 1) / multiple * multiple;
    }
}
