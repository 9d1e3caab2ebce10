package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * No lost update: {@link #CLIENTS} clients at once read an item, append their own token to its
 * payload and write it back with {@code If-Match} (Memcached {@code cas}), retrying on 412, on
 * every variant. Every 200 is counted; at the end the item must hold exactly the tokens whose
 * update was answered 200, each once. A server that turned the compare-and-swap into a plain
 * replace, or answered 200 for a write that did not land, loses or invents tokens here.
 */
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@StartedVariant(log = "lost-update")
class LostUpdateIT {
    private static final int CLIENTS = 8;
    private static final int UPDATES_PER_CLIENT = 15;
    /** Bounds the run whatever happens: no client tries more often than this. */
    private static final int MAX_ATTEMPTS_PER_CLIENT = 1000;

    private final Variant variant;
    private final RunningVariant running;

    LostUpdateIT(Variant variant, RunningVariant running) {
        this.variant = variant;
        this.running = running;
    }

    @Test
    void concurrentCompareAndSwapUpdatesAreNeitherLostNorInvented() throws Exception {
        HttpProbe http = running.http;
        String path = Items.path(FaultDrill.newId());
        assertThat(http.put(path, Items.item("counter", "")).status()).isEqualTo(201);

        AtomicInteger conflicts = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<List<String>>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            String client = "c" + c;
            clients.add(pool.submit(() -> readModifyWrite(http, path, client, conflicts)));
        }
        List<String> acknowledged = new ArrayList<>();
        try {
            for (Future<List<String>> client : clients) {
                acknowledged.addAll(client.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        List<String> stored = tokens(http.get(path).json().path("payload").asText());
        List<String> lost = new ArrayList<>(acknowledged);
        lost.removeAll(stored);
        RobustnessSummary.record(variant.name(), "updates_acknowledged", acknowledged.size());
        RobustnessSummary.record(variant.name(), "conflicts_412", conflicts.get());
        RobustnessSummary.record(variant.name(), "lost_updates", lost.size());
        assertThat(lost).as("updates answered 200 but missing from the item").isEmpty();
        assertThat(stored).as("the item holds exactly the acknowledged updates, each once")
                .containsExactlyInAnyOrderElementsOf(acknowledged);
        assertThat(acknowledged).hasSize(CLIENTS * UPDATES_PER_CLIENT);
        assertThat(conflicts.get()).as("412s: the clients did race each other").isPositive();
    }

    /** One client's loop; returns the tokens whose update was answered 200. */
    private static List<String> readModifyWrite(HttpProbe http, String path, String client, AtomicInteger conflicts) {
        List<String> mine = new ArrayList<>();
        for (int attempt = 0; attempt < MAX_ATTEMPTS_PER_CLIENT && mine.size() < UPDATES_PER_CLIENT; attempt++) {
            Reply read = http.get(path);
            assertThat(read.status()).as("GET by %s", client).isEqualTo(200);
            String token = client + "-" + mine.size();
            String payload = read.json().path("payload").asText();
            String next = payload.isEmpty() ? token : payload + "," + token;
            Reply write = http.post(path, Items.item("counter", next), Map.of("If-Match", read.etag()));
            if (write.status() == 200) {
                mine.add(token);
            } else {
                assertThat(write.status()).as("POST by %s: 200 or 412 only; %s", client, write.text()).isEqualTo(412);
                conflicts.incrementAndGet();
            }
        }
        return mine;
    }

    private static List<String> tokens(String payload) {
        return payload.isEmpty() ? List.of() : Arrays.asList(payload.split(","));
    }
}
