package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.contract.RawConnection.RawResponse;
import org.testbed.variant.Variant;

/**
 * Memcached faults over and over on every variant, with a burst of concurrent reads, writes and
 * health checks in flight while Memcached is hung or dead: every request of every burst must be a
 * fast 503, every cycle must recover without a restart, and the faults must not leak threads or
 * file descriptors.
 *
 * <p>A leak of one socket or thread per fault (a reconnect that forgets the old connection, a
 * timer thread per timeout) grows with the number of faults; a request pool filling up to the
 * load's concurrency does not, but its count alone cannot tell the two apart: a pool's size is its
 * highest peak so far, and Jetty's sync pool once grew by 7 threads between the second and the
 * eighth cycle, only then reaching the burst's {@link #CONCURRENT} workers. So threads are counted
 * by family ({@link ThreadCensus}), between the end of {@link #WARM_UP_CYCLES} and the end of
 * {@link #CYCLES}, three cycles (six faults) apart: the request pools may grow by the burst's
 * concurrency, every other family of the application (the store's I/O and timer threads, the
 * server's utility threads) together by {@link #SLACK}, so one thread leaked per cycle (3) fails,
 * and one per fault (6) fails twice over.
 * Descriptors are not pooled and get {@link #SLACK} too.
 */
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@StartedVariant(log = "faults")
class FaultRecoveryIT {
    private static final int WARM_UP_CYCLES = 2;
    private static final int CYCLES = 5;
    /** Requests in flight at once during each fault: more than a handful, fewer than any pool. */
    private static final int CONCURRENT = 16;
    private static final int SLACK = 2;

    private final Variant variant;
    private final RunningVariant running;

    FaultRecoveryIT(Variant variant, RunningVariant running) {
        this.variant = variant;
        this.running = running;
    }

    @Test
    void repeatedFaultsAreSurvivedWithoutLeakingThreadsOrFileDescriptors() {
        FaultDrill drill = new FaultDrill(running);
        ExecutorService clients = Executors.newFixedThreadPool(CONCURRENT);
        int passed = 0;
        int total = 2 * CYCLES + 1;
        ProcessStats before = null;
        ThreadCensus threadsBefore = null;
        try {
            for (int cycle = 1; cycle <= CYCLES; cycle++) {
                drill.hung(id -> burstOf503s(clients, drill, id));
                passed++;
                drill.dead(id -> burstOf503s(clients, drill, id));
                passed++;
                if (cycle == WARM_UP_CYCLES) {
                    before = settledStats();
                    threadsBefore = settledThreads();
                }
            }
            ProcessStats after = settledStats();
            ThreadCensus threadsAfter = settledThreads();
            RobustnessSummary.record(variant.name(), "threads_before_after", before.threads() + "->" + after.threads());
            RobustnessSummary.record(variant.name(), "fds_before_after", before.fileDescriptors() + "->" + after.fileDescriptors());
            int otherThreadsAdded = threadsAfter.otherGrowthSince(threadsBefore).values().stream()
                    .mapToInt(Integer::intValue).sum();
            assertThat(otherThreadsAdded).as("threads added over %d fault cycles outside the request pools, by family: %s"
                    + " (before: %s; after: %s)", CYCLES - WARM_UP_CYCLES, threadsAfter.otherGrowthSince(threadsBefore),
                    before, after).isLessThanOrEqualTo(SLACK);
            assertThat(threadsAfter.requestPoolThreads()).as("request pool threads over %d fault cycles (before: %s;"
                    + " after: %s)", CYCLES - WARM_UP_CYCLES, threadsBefore.families(), threadsAfter.families())
                    .isLessThanOrEqualTo(threadsBefore.requestPoolThreads() + CONCURRENT);
            assertThat(after.fileDescriptors()).as("file descriptors over %d fault cycles (before: %s; after: %s)",
                    CYCLES - WARM_UP_CYCLES, before, after).isLessThanOrEqualTo(before.fileDescriptors() + SLACK);
            passed++;
        } finally {
            clients.shutdownNow();
            RobustnessSummary.record(variant.name(), "fault_cases_passed", passed + "/" + total);
        }
    }

    /**
     * {@link #CONCURRENT} requests at once, a mix of GET and POST of the item {@code id}, PUTs of
     * new items and health checks, each on its own connection closed afterwards (so that the
     * descriptor counts compare like with like). Every one must be a 503 problem in time.
     */
    private void burstOf503s(ExecutorService clients, FaultDrill drill, String id) {
        byte[] body = Items.item("burst", "p").getBytes(StandardCharsets.UTF_8);
        List<BurstRequest> requests = new ArrayList<>();
        List<Future<RawResponse>> answers = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            BurstRequest request = switch (i % 4) {
                case 0 -> new BurstRequest("GET", Items.path(id), null);
                case 1 -> new BurstRequest("POST", Items.path(id), body);
                case 2 -> new BurstRequest("PUT", Items.path(FaultDrill.newId()), body);
                default -> new BurstRequest("GET", "/testbed/health", null);
            };
            requests.add(request);
            answers.add(clients.submit(() -> {
                try (RawConnection connection = new RawConnection(running.process.baseUri())) {
                    return connection.exchange(request.method(), request.path(),
                            request.body() == null ? null : "application/json", request.body());
                }
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RunningVariant.MEMCACHED_TIMEOUT_MS)
                + FaultDrill.FAULT_MARGIN.toNanos();
        for (int i = 0; i < answers.size(); i++) {
            RawResponse response;
            try {
                response = answers.get(i).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                throw new AssertionError("a request during the fault did not answer within the timeout plus "
                        + FaultDrill.FAULT_MARGIN + ": " + e, e);
            }
            BurstRequest request = requests.get(i);
            RawResponse answered = response;
            // CI keeps the tests' output, not the variants' logs: a wrong answer quotes its server's last lines.
            assertThat(answered.status()).as(() -> String.format("%s %s during the fault: headers %s, body '%s'; the"
                    + " last output of the variant (%s):%n%s", request.method(), request.path(), answered.headers(),
                    new String(answered.body(), StandardCharsets.UTF_8), running.process.log(),
                    String.join(System.lineSeparator(), running.process.recentOutput()))).isEqualTo(503);
            assertThat(response.header("Content-Type")).startsWith("application/problem+json");
            assertThat(response.header("Retry-After")).isNotNull();
        }
    }

    /** One request of a burst; {@code body} null for a GET. */
    private record BurstRequest(String method, String path, byte[] body) {
    }

    /**
     * The counts once the server is quiet: the lowest over a second of samples, since a connection
     * just closed by the client or a pool thread about to retire may still be counted for a moment.
     */
    private ProcessStats settledStats() {
        FaultDrill.sleep(500);
        ProcessStats lowest = ProcessStats.of(running.process.pid());
        for (int i = 0; i < 5; i++) {
            FaultDrill.sleep(200);
            ProcessStats now = ProcessStats.of(running.process.pid());
            lowest = new ProcessStats(Math.min(lowest.threads(), now.threads()),
                    Math.min(lowest.fileDescriptors(), now.fileDescriptors()), now.rssKb());
        }
        return lowest;
    }

    /** The thread families once the server is quiet, each at its lowest over a second, as {@link #settledStats}. */
    private ThreadCensus settledThreads() {
        ThreadCensus lowest = ThreadCensus.of(running.process.pid());
        for (int i = 0; i < 5; i++) {
            FaultDrill.sleep(200);
            lowest = lowest.lowest(ThreadCensus.of(running.process.pid()));
        }
        return lowest;
    }
}
