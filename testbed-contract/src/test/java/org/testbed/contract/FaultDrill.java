package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.contract.HttpProbe.assertProblem;
import static org.testbed.contract.Items.item;
import static org.testbed.contract.Items.path;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.testbed.contract.HttpProbe.Reply;

/**
 * The contract's Memcached faults, as steps the contract suite runs once and the robustness suite
 * runs over and over: Memcached hung (SIGSTOP), then dead (SIGKILL) and restarted on the same port.
 * Each step asserts the contract (503 with a problem body within the timeout plus a margin, health
 * 503, nothing stored) and that the same server process recovers by itself within 10 s.
 */
final class FaultDrill {
    /** "503 within the timeout plus a small margin": the margin allowed on a noisy 2-core machine. */
    static final Duration FAULT_MARGIN = Duration.ofMillis(1000);
    static final Duration RECOVERY_LIMIT = Duration.ofSeconds(10);

    private final RunningVariant running;
    private final HttpProbe http;
    private final Duration limit = Duration.ofMillis(RunningVariant.MEMCACHED_TIMEOUT_MS).plus(FAULT_MARGIN);

    FaultDrill(RunningVariant running) {
        this.running = running;
        this.http = running.http;
    }

    static String newId() {
        return Items.newId("fault");
    }

    /**
     * Memcached hung: {@code whileHung} gets the id of an item stored before the hang; after
     * resume that item is readable again.
     */
    void hung(Consumer<String> whileHung) {
        String id = newId();
        assertThat(http.put(path(id), item("survives", "the hang")).status()).as("PUT before the hang").isEqualTo(201);
        running.memcached.pause();
        try {
            whileHung.accept(id);
        } finally {
            running.memcached.resume();
        }
        awaitHealthy();
        assertThat(http.get(path(id)).status()).as("GET after the hang").isEqualTo(200);
        assertThat(running.process.isAlive()).isTrue();
    }

    /** The contract while hung: GET, health and POST of the existing item {@code id} are 503 in time. */
    void assertHungContract(String id) {
        assertFast503("GET while hung", http.get(path(id)));
        assertFast503("health while hung", http.get("/testbed/health"));
        assertFast503("POST while hung", http.post(path(id), item("never", "stored"), Map.of()));
    }

    /**
     * Memcached dead: {@code whileDead} gets a fresh id; after a restart on the same port the same
     * server process serves again, without a restart of its own.
     */
    void dead(Consumer<String> whileDead) {
        long pid = running.process.pid();
        running.memcached.kill();
        try {
            whileDead.accept(newId());
        } finally {
            running.memcached.restart();
        }
        awaitHealthy();
        String id = newId();
        assertThat(http.put(path(id), item("after", "restart")).status()).as("PUT after the restart").isEqualTo(201);
        assertThat(http.get(path(id)).json().path("payload").asText()).isEqualTo("restart");
        assertThat(running.process.pid()).as("same server process, no restart").isEqualTo(pid);
    }

    /** The contract while dead: PUT, GET and health are 503 in time. */
    void assertDeadContract(String id) {
        assertFast503("PUT while dead", http.put(path(id), item("n", "p")));
        assertFast503("GET while dead", http.get(path(id)));
        assertFast503("health while dead", http.get("/testbed/health"));
    }

    void assertFast503(String what, Reply reply) {
        assertProblem(what, reply, 503);
        assertThat(reply.elapsed()).as("%s: answered within the timeout plus %s", what, FAULT_MARGIN).isLessThan(limit);
    }

    /** Polls health until 200; fails if the service has not recovered within {@link #RECOVERY_LIMIT}. */
    void awaitHealthy() {
        long deadline = System.nanoTime() + RECOVERY_LIMIT.toNanos();
        Reply last = null;
        while (System.nanoTime() < deadline) {
            last = http.get("/testbed/health");
            if (last.status() == 200) {
                return;
            }
            sleep(100);
        }
        throw new AssertionError("no recovery within " + RECOVERY_LIMIT + "; last health: " + last.status() + " " + last.text());
    }

    /**
     * PUTs {@code body} under fresh ids until one is stored (201), as after a resume the store may
     * take a moment; returns that id. Fails, naming {@code what} and the last answer, after
     * {@link #RECOVERY_LIMIT}.
     */
    static String putUntilStored(HttpProbe http, String what, String body) {
        long deadline = System.nanoTime() + RECOVERY_LIMIT.toNanos();
        Reply last = null;
        while (System.nanoTime() < deadline) {
            String id = Items.newId("stored");
            last = http.put(Items.path(id), body);
            if (last.status() == 201) {
                return id;
            }
            sleep(20);
        }
        throw new AssertionError(what + ": no successful PUT within " + RECOVERY_LIMIT + "; last: " + last.status() + " "
                + last.text());
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
