package org.testbed.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.testbed.item.Item;

/**
 * The CRUD journey of the Tomcat study, as one user repeats it: create (PUT) → read (GET) → update
 * (POST, compare-and-swap with the ETag just read) → read and check the update (read-your-writes) →
 * delete → read expecting 404. Each journey uses a fresh key of the lane's key space.
 *
 * <p>When a step fails, the rest of that journey is pointless: a failed read or update goes
 * straight to the delete (so nothing is left behind), any other failure starts the next journey.
 */
public record CrudJourney(KeySpace keys, int payloadSize, long seed) implements Workload {
    public static final String CREATE = "create";
    public static final String READ = "read";
    public static final String UPDATE = "update";
    public static final String READ_UPDATED = "read-updated";
    public static final String DELETE = "delete";
    public static final String READ_DELETED = "read-deleted";
    /** Steps of one journey, in order. */
    public static final List<String> STEPS = List.of(CREATE, READ, UPDATE, READ_UPDATED, DELETE, READ_DELETED);
    private static final char KIND = 'j';

    public CrudJourney {
        Payloads.payload(payloadSize, new SplittableRandom(0)); // validates the size
    }

    @Override
    public String name() {
        return "journey";
    }

    @Override
    public Lane stream(long lane) {
        return new Lane(lane);
    }

    /** The six requests of journey {@code seq} of {@code lane}, as a lane would send them when all succeed. */
    public List<RequestSpec> journey(long lane, long seq) {
        Lane l = new Lane(lane);
        List<RequestSpec> all = new ArrayList<>();
        for (long s = 0; s <= seq; s++) {
            all.clear();
            for (int i = 0; i < STEPS.size(); i++) {
                RequestSpec spec = l.next();
                all.add(spec);
                l.completed(spec, true);
            }
        }
        return all;
    }

    /** One lane's endless sequence of journeys. */
    public final class Lane implements RequestStream {
        private final long lane;
        private final SplittableRandom random;
        private long seq = -1;
        private int step;
        private List<RequestSpec> current;

        private Lane(long lane) {
            this.lane = lane;
            this.random = Seeds.forLane(seed, lane);
        }

        @Override
        public RequestSpec next() {
            if (current == null || step >= current.size()) {
                current = newJourney();
                step = 0;
            }
            return current.get(step);
        }

        @Override
        public void completed(RequestSpec spec, boolean ok) {
            if (ok) {
                step++;
                return;
            }
            String failed = spec.name();
            if (failed.equals(READ) || failed.equals(UPDATE) || failed.equals(READ_UPDATED)) {
                step = STEPS.indexOf(DELETE);
            } else {
                step = current.size();
            }
        }

        private List<RequestSpec> newJourney() {
            seq++;
            String id = keys.key(lane, KIND, seq);
            Item created = new Item(id, "user-" + lane + "-" + seq, Payloads.payload(payloadSize, random));
            Item updated = new Item(id, "user-" + lane + "-" + seq + "-v2", Payloads.payload(payloadSize, random));
            return List.of(
                    Requests.create(CREATE, created),
                    Requests.read(READ, created),
                    Requests.update(UPDATE, updated, true),
                    Requests.read(READ_UPDATED, updated),
                    Requests.delete(DELETE, id),
                    Requests.readAbsent(READ_DELETED, id));
        }
    }
}
