package org.testbed.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;

import io.gatling.javaapi.core.OpenInjectionStep;
import java.time.Duration;
import org.testbed.scenario.LoadShape;
import org.testbed.scenario.ThinkTime;

/**
 * The JMeter-style run of the Tomcat study, open model: {@code -Dusers} (1000) users arrive evenly
 * over {@code -Dramp} (60 s); each loops the CRUD journey (create, read, update with If-Match, read
 * and check the update, delete, read expecting 404) with a think time drawn from
 * [{@code -DthinkMinMs}, {@code -DthinkMaxMs}] (500-2000 ms) after every request, until
 * {@code -Dduration} (120 s) has passed after the ramp.
 *
 * <p>Connections are per user, as they are for real clients and JMeter threads: each user opens one
 * keep-alive connection (one TLS handshake with https) and reuses it for all its requests.
 */
public class RealisticUsers extends TestbedSimulation {

    public RealisticUsers() {
        LoadShape.Realistic shape = shape(fromKnobs(knobs));
        start(shape, workload("journey"), "open");
        OpenInjectionStep arrivals = shape.ramp().isZero()
                ? atOnceUsers(shape.users()) : rampUsers(shape.users()).during(shape.ramp());
        run(loopingUsers("realistic-users", shape.think()).injectOpen(arrivals), false);
    }

    /** The shape the knobs ask for. */
    static LoadShape.Realistic fromKnobs(Knobs knobs) {
        int users = knobs.integer("users", 1000);
        Duration ramp = knobs.seconds("ramp", 60);
        Duration hold = knobs.seconds("duration", 120);
        Duration thinkMin = knobs.millis("thinkMinMs", 500);
        Duration thinkMax = knobs.millis("thinkMaxMs", 2000);
        return knobs.build(() -> new LoadShape.Realistic(users, ramp, hold, new ThinkTime(thinkMin, thinkMax)),
                "users", "users", "ramp", "ramp", "hold", "duration", "min", "thinkMinMs", "max", "thinkMaxMs");
    }
}
