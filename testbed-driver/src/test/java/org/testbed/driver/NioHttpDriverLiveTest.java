package org.testbed.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.driver.PlaintextServer.mix;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.AbstractHistogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.SecondListener.SecondFigures;
import org.testbed.scenario.Mix;

/** The live view of a window: each second told once it is over, with the figures the step's interval log keeps. */
class NioHttpDriverLiveTest {
    /** Reads, updates and creates; the test server refuses creates (405), so each create is an error. */
    private static final Mix WITH_FAILING_CREATES = new Mix(50, 40, 10, 0);

    private PlaintextServer server;

    @BeforeEach
    void start() throws IOException {
        server = new PlaintextServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void eachWholeSecondIsToldOnceWithTheFiguresOfItsInterval(@TempDir Path dir) throws Exception {
        List<SecondFigures> told = new ArrayList<>();
        List<String> threads = new ArrayList<>();
        // Two users on two event loops: a second's figures are the two loops' added.
        LoadResult r = new NioHttpDriver(Duration.ofSeconds(5), 64).run(server.target(), mix(WITH_FAILING_CREATES),
                Level.closed(2), Duration.ofSeconds(4), 2, WindowWatcher.NEVER, second -> {
                    told.add(second);
                    threads.add(Thread.currentThread().getName());
                });

        // Seconds 0, 1 and 2, in order, each once; the last one (3) ends with the window and is not told.
        // A second a loop could not hand over in time (a starved machine) is skipped, never told late.
        assertThat(told).extracting(SecondFigures::index).isSorted().doesNotHaveDuplicates().hasSizeGreaterThanOrEqualTo(2)
                .allMatch(i -> i >= 0 && i <= 2);
        assertThat(threads).containsOnly(Thread.currentThread().getName());

        Path file = dir.resolve("live.hlog");
        r.intervals().write(file, List.of("live"));
        Map<String, List<AbstractHistogram>> log = NioHttpDriverOperationsTest.read(file);
        long[] perSecond = r.perSecond();
        for (SecondFigures second : told) {
            int i = second.index();
            AbstractHistogram interval = log.get("").get(i);
            assertThat(second.requests()).as("second %d", i).isPositive().isEqualTo(perSecond[i])
                    .isEqualTo(interval.getTotalCount());
            assertThat(second.latency().p99()).as("second %d", i).isEqualTo(interval.getValueAtPercentile(99) / 1000.0);
            assertThat(second.latency().max()).as("second %d", i).isEqualTo(interval.getMaxValue() / 1000.0);
            // Every create fails (and a delete the churn sends in its place), nothing else does.
            long refused = log.getOrDefault("PUT", List.of()).get(i).getTotalCount()
                    + (log.containsKey("DELETE") ? log.get("DELETE").get(i).getTotalCount() : 0);
            // (a second of a starved machine may hold no create at all: no error is asserted per second)
            assertThat(second.errors()).as("second %d", i).isEqualTo(refused);
        }
        assertThat(r.errors()).isPositive();
        assertThat(told.stream().mapToLong(SecondFigures::errors).sum()).isLessThanOrEqualTo(r.errors());
    }
}
