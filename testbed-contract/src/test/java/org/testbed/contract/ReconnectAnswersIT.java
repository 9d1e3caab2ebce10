package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.contract.HttpProbe.Reply;
import org.testbed.variant.Variant;

/**
 * After the store's client drops and re-opens its connection to a hung Memcached, every answer
 * must still be the store's answer to that request.
 *
 * <p>The client used to send a write that was half in the socket when the connection dropped again
 * on the new one, without waiting for its reply; from then on each operation read the reply meant
 * for the one before it: a stored item answered 404 (the miss of the read before it), or 200 with
 * another item's body, until some reply failed to parse. Each round here hangs Memcached (SIGSTOP)
 * under {@link #UPDATES} updates of absent ids of 60 KB each, more than the socket buffers on both
 * ends take, so one is half sent when their time-outs make the client reconnect; keeps it hung
 * until the new connection is made ({@link #RECONNECT_WAIT}); then reads, first one request at a
 * time (a shifted answer then stays shifted), then from {@link #READERS} clients at once. A 503 is
 * allowed, a wrong answer is not. The store timeout is {@link #TIMEOUT_MS} so that all the updates
 * reach the store before the first times out. Variants whose store calls are asynchronous do not
 * reconnect on time-outs; they must answer right all the same.
 */
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@StartedVariant(args = {"--memcached-timeout-ms", "" + ReconnectAnswersIT.TIMEOUT_MS}, log = "reconnect")
class ReconnectAnswersIT {
    static final int TIMEOUT_MS = 1000;
    private static final int ROUNDS = 3;
    private static final int UPDATES = 128;
    private static final int READERS = 16;
    private static final int READS_ONE_AT_A_TIME = 50;
    private static final int READS_PER_READER = 20;
    /** The third time-out is seen within a second, the new connection made a second later. */
    private static final Duration RECONNECT_WAIT = Duration.ofMillis(3000);

    private final Variant variant;
    private final RunningVariant running;
    private final HttpProbe http;

    ReconnectAnswersIT(Variant variant, RunningVariant running) {
        this.variant = variant;
        this.running = running;
        this.http = running.http;
    }

    @Test
    void answersAfterAReconnectDuringAHangAreTheStoresOwn() throws InterruptedException {
        List<String> stored = new ArrayList<>();
        for (int i = 0; i < READERS; i++) {
            stored.add(FaultDrill.putUntilStored(http, "item " + i, Items.item(nameOf(i), "reader " + i)));
        }
        String largeBody = Items.item("large", "x".repeat(60_000));
        Queue<String> wrong = new ConcurrentLinkedQueue<>();
        AtomicInteger right = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(UPDATES);
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                running.memcached.pause();
                try {
                    List<Callable<Reply>> updates = new ArrayList<>();
                    for (int i = 0; i < UPDATES; i++) {
                        updates.add(() -> http.post(Items.path(Items.newId("absent")), largeBody, Map.of()));
                    }
                    for (Future<Reply> update : clients.invokeAll(updates, 30, TimeUnit.SECONDS)) {
                        int status = update.isCancelled() ? -1 : resultOf(update).status();
                        if (status != 503) {
                            wrong.add("round " + round + ", update of an absent id while hung: " + status);
                        }
                    }
                    FaultDrill.sleep(RECONNECT_WAIT.toMillis());
                } finally {
                    running.memcached.resume();
                }
                String when = "round " + round;
                readPairs(when + ", one at a time", 0, stored.get(0), READS_ONE_AT_A_TIME, wrong, right);
                List<Callable<Void>> readers = new ArrayList<>();
                for (int i = 0; i < READERS; i++) {
                    int reader = i;
                    readers.add(() -> {
                        readPairs(when + ", " + READERS + " at once", reader, stored.get(reader), READS_PER_READER,
                                wrong, right);
                        return null;
                    });
                }
                for (Future<Void> reader : clients.invokeAll(readers, 60, TimeUnit.SECONDS)) {
                    resultOf(reader);
                }
            }
        } finally {
            clients.shutdownNow();
            RobustnessSummary.record(variant.name(), "reads_after_reconnect_right",
                    right.get() + "/" + (right.get() + wrong.size()));
        }
        assertThat(wrong).as("wrong answers after a reconnect (%d read pairs right)", right.get()).isEmpty();
        int pairs = ROUNDS * (READS_ONE_AT_A_TIME + READERS * READS_PER_READER);
        assertThat(right.get()).as("read pairs answered (not 503) after Memcached came back, of %d", pairs)
                .isGreaterThan(pairs / 2);
    }

    private static String nameOf(int reader) {
        return "kept-" + reader;
    }

    /** Reads a stored item and an absent id, {@code pairs} times; 503s are skipped, not counted. */
    private void readPairs(String when, int reader, String id, int pairs, Queue<String> wrong, AtomicInteger right) {
        for (int pair = 0; pair < pairs; pair++) {
            Reply own = http.get(Items.path(id));
            Reply absent = http.get(Items.path(Items.newId("absent")));
            if (own.status() == 503 || absent.status() == 503) {
                FaultDrill.sleep(20);
            } else if (own.status() != 200 || !nameOf(reader).equals(own.json().path("name").asText())) {
                wrong.add(when + ", GET of a stored item: " + own.status() + " " + abbreviated(own));
            } else if (absent.status() != 404) {
                wrong.add(when + ", GET of an absent id: " + absent.status() + " " + abbreviated(absent));
            } else {
                right.incrementAndGet();
            }
        }
    }

    private static String abbreviated(Reply reply) {
        String text = reply.text();
        return text.length() > 120 ? text.substring(0, 120) + "..." : text;
    }

    private static <T> T resultOf(Future<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new AssertionError("a request failed: " + e.getCause(), e.getCause());
        }
    }
}
