package org.testbed.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;

import java.time.Duration;
import org.testbed.scenario.LoadShape;
import org.testbed.scenario.ThinkTime;

/**
 * Maximum throughput, closed model, the Gatling twin of {@code wrk -c96 -d30s}: {@code -Dusers}
 * (96) users send requests back to back, no think time, for {@code -Dduration} (30 s).
 *
 * <p>Each user keeps one lane and loops until the time is up, so it holds one keep-alive
 * connection (one TLS handshake with https) for the whole run, exactly like one wrk connection;
 * {@code shareConnections()} is not needed here (it would only matter if users were replaced after
 * each request).
 */
public class MaxThroughput extends TestbedSimulation {

    public MaxThroughput() {
        LoadShape.Throughput shape = shape(fromKnobs(knobs));
        start(shape, workload("mix"), "closed");
        run(loopingUsers("max-throughput", ThinkTime.NONE)
                .injectClosed(constantConcurrentUsers(shape.concurrency()).during(shape.duration())), false);
    }

    /** The shape the knobs ask for. */
    static LoadShape.Throughput fromKnobs(Knobs knobs) {
        int users = knobs.integer("users", 96);
        Duration duration = knobs.seconds("duration", 30);
        return knobs.build(() -> new LoadShape.Throughput(users, duration), "concurrency", "users", "duration", "duration");
    }
}
