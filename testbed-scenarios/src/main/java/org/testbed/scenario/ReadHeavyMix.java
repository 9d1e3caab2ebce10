package org.testbed.scenario;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import org.testbed.item.Item;

/**
 * A request mix over a preloaded key set, stable however long it runs.
 *
 * <ul>
 *   <li>GET reads a random preloaded key (200; its content may have been updated by anyone).</li>
 *   <li>POST updates a random preloaded key (200, the response is the item just written), so the
 *       preloaded set never shrinks or grows.</li>
 *   <li>PUT creates a key in the lane's own churn range ({@code RUN.INJECTOR.LANE.cSEQ}) and DELETE
 *       removes the lane's oldest churn key: creates and deletes cancel out, the store stays the
 *       size it was, and no DELETE ever targets a key that does not exist.</li>
 * </ul>
 *
 * A DELETE drawn while the lane has nothing (old enough) to delete is sent as a PUT, and a PUT drawn
 * while the lane holds {@code churnCap} keys is sent as a DELETE; each swap is paid back by the next
 * draw of the other kind, so the long-run ratios are the configured ones. {@code deleteLag} keeps a
 * key at least that many requests old before it is deleted, for drivers (wrk) that spread one
 * lane's requests over several connections and could otherwise overtake the create.
 */
public record ReadHeavyMix(KeySpace keys, Mix mix, int preloadKeys, int payloadSize, long seed,
                           int churnCap, int deleteLag) implements Workload {
    public static final String GET = "mix-get";
    public static final String POST = "mix-update";
    public static final String PUT = "mix-create";
    public static final String DELETE = "mix-delete";
    public static final int DEFAULT_PRELOAD_KEYS = 1000;
    public static final int DEFAULT_CHURN_CAP = 8;
    private static final char KIND = 'c';

    public ReadHeavyMix {
        if (preloadKeys < 1) {
            throw new InvalidParameterException("preloadKeys", preloadKeys, "a whole number, at least 1 (the mix reads preloaded keys)");
        }
        if (churnCap < 1 || deleteLag < 0) {
            throw new IllegalArgumentException("churnCap must be >= 1 and deleteLag >= 0");
        }
        Payloads.payload(payloadSize, new SplittableRandom(0)); // validates the size
    }

    public ReadHeavyMix(KeySpace keys, Mix mix, int preloadKeys, int payloadSize, long seed) {
        this(keys, mix, preloadKeys, payloadSize, seed, DEFAULT_CHURN_CAP, 0);
    }

    @Override
    public String name() {
        return "mix";
    }

    /**
     * This mix with churn keys kept at least {@code lag} requests before their delete (and room for
     * twice as many at once), for drivers that send one lane's requests on several connections or
     * threads at once, where a delete could otherwise overtake the create of its key.
     */
    public ReadHeavyMix withDeleteLag(int lag) {
        return new ReadHeavyMix(keys, mix, preloadKeys, payloadSize, seed, Math.max(churnCap, 2 * lag), lag);
    }

    /** The preloaded items, created before the run (201, or 409 when a previous run left them). */
    @Override
    public List<RequestSpec> preload() {
        SplittableRandom random = Seeds.forLane(seed, -1);
        List<RequestSpec> puts = new ArrayList<>(preloadKeys);
        for (int i = 0; i < preloadKeys; i++) {
            String id = KeySpace.preloadKey(payloadSize, i);
            puts.add(Requests.create("preload", new Item(id, "preloaded-" + i, Payloads.payload(payloadSize, random))));
        }
        return puts;
    }

    @Override
    public Lane stream(long lane) {
        return new Lane(lane);
    }

    /** One lane of the mix. */
    public final class Lane implements RequestStream {
        private record Churn(String id, long createdAt) {
        }

        private final long lane;
        private final SplittableRandom random;
        private final ArrayDeque<Churn> outstanding = new ArrayDeque<>();
        private long sent;
        private long churnSeq;
        /** Creates sent minus creates drawn (= deletes drawn minus deletes sent). */
        private long skew;

        private Lane(long lane) {
            this.lane = lane;
            this.random = Seeds.forLane(seed, lane);
        }

        @Override
        public RequestSpec next() {
            HttpMethod drawn = mix.draw(random);
            HttpMethod method = drawn;
            if (drawn == HttpMethod.PUT) {
                if ((skew > 0 || outstanding.size() >= churnCap) && canDelete()) {
                    method = HttpMethod.DELETE;
                    skew--;
                }
            } else if (drawn == HttpMethod.DELETE) {
                if ((skew < 0 && outstanding.size() < churnCap) || !canDelete()) {
                    method = HttpMethod.PUT;
                    skew++;
                }
            }
            long index = sent++;
            return switch (method) {
                case GET -> Requests.readAny(GET, preloaded());
                case POST -> {
                    String id = preloaded();
                    Item item = new Item(id, "updated-" + lane + "-" + index, Payloads.payload(payloadSize, random));
                    yield Requests.update(POST, item, false);
                }
                case PUT -> {
                    String id = keys.key(lane, KIND, churnSeq++);
                    outstanding.addLast(new Churn(id, index));
                    yield Requests.create(PUT, new Item(id, "churn-" + lane, Payloads.payload(payloadSize, random)));
                }
                case DELETE -> Requests.delete(DELETE, outstanding.removeFirst().id());
            };
        }

        @Override
        public void completed(RequestSpec spec, boolean ok) {
            if (!ok && spec.name().equals(PUT)) {
                // Not created (or unknown): never delete it later, a 404 would count as a second error.
                String path = spec.path();
                for (Iterator<Churn> it = outstanding.descendingIterator(); it.hasNext(); ) {
                    if (path.endsWith("/" + it.next().id())) {
                        it.remove();
                        break;
                    }
                }
            }
        }

        /** The keys this lane created and has not deleted yet, oldest first. */
        public List<String> outstandingKeys() {
            return outstanding.stream().map(Churn::id).toList();
        }

        private boolean canDelete() {
            Churn oldest = outstanding.peekFirst();
            return oldest != null && sent - oldest.createdAt() >= deleteLag;
        }

        private String preloaded() {
            return KeySpace.preloadKey(payloadSize, random.nextInt(preloadKeys));
        }
    }
}
