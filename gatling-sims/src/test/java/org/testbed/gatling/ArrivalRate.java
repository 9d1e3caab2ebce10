package org.testbed.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;

import java.time.Duration;
import org.testbed.scenario.LoadShape;

/**
 * The sync-vs-async run, open model: {@code -Drps} (5000) requests per second offered for
 * {@code -Dduration} (60 s), each one {@code GET /testbed/delay?ms=}{@code -DdelayMs} (150). Arrivals
 * do not wait for responses, so a sync server bounded by Little's law (threads / latency) shows
 * growing latency and errors, an async one does not.
 *
 * <p>Each arrival is a new user with one request, so connections are shared: without
 * {@code shareConnections()} every request would open a new connection (and with https do a TLS
 * handshake); with it, the pool keeps as many keep-alive connections as requests are in flight.
 */
public class ArrivalRate extends TestbedSimulation {

    public ArrivalRate() {
        LoadShape.ArrivalRate shape = shape(fromKnobs(knobs));
        start(shape, workload("delay"), "open");
        run(oneShotUsers("arrival-rate").injectOpen(constantUsersPerSec(shape.rps()).during(shape.duration())), true);
    }

    /** The shape the knobs ask for. */
    static LoadShape.ArrivalRate fromKnobs(Knobs knobs) {
        double rps = knobs.decimal("rps", 5000);
        Duration duration = knobs.seconds("duration", 60);
        return knobs.build(() -> new LoadShape.ArrivalRate(rps, duration), "rps", "rps", "duration", "duration");
    }
}
