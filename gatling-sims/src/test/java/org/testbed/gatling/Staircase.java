package org.testbed.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.incrementConcurrentUsers;

import io.gatling.javaapi.core.ClosedInjectionStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testbed.scenario.LoadShape;
import org.testbed.scenario.ThinkTime;

/**
 * The staircase of the Tomcat-vs-Netty study, closed model: after {@code -Dwarmup} (10 s) at
 * {@code -Dfrom} users (reported as the {@code warmup} row), {@code -Dfrom} (50) concurrent users,
 * then {@code -Dstep} (50) more per level up to {@code -Dusers} (1100), each level held for
 * {@code -Dduration} (60 s), levels separated by {@code -Dramp} (0 s) ramps. Users never leave
 * before the end, so each level has exactly that many connections, each kept alive.
 *
 * <p>The summary has one row per level (requests, rps, percentiles by the level the request
 * started in), the shape the runner's CSV wants.
 */
public class Staircase extends TestbedSimulation {

    public Staircase() {
        LoadShape.Staircase shape = shape(fromKnobs(knobs));
        start(shape, workload("mix"), "closed");
        ClosedInjectionStep.Composite stairs = incrementConcurrentUsers(shape.step())
                .times(shape.levels())
                .eachLevelLasting(shape.level())
                .startingFrom(shape.from());
        if (!shape.ramp().isZero()) {
            stairs = stairs.separatedByRampsLasting(shape.ramp());
        }
        List<ClosedInjectionStep> steps = new ArrayList<>();
        if (!shape.warmup().isZero()) {
            steps.add(constantConcurrentUsers(shape.from()).during(shape.warmup()));
        }
        steps.add(stairs);
        run(loopingUsers("staircase", ThinkTime.NONE).injectClosed(steps), false);
    }

    /** The shape the knobs ask for. */
    static LoadShape.Staircase fromKnobs(Knobs knobs) {
        int from = knobs.integer("from", 50);
        int users = knobs.integer("users", 1100);
        int step = knobs.integer("step", 50);
        Duration level = knobs.seconds("duration", 60);
        Duration ramp = knobs.seconds("ramp", 0);
        Duration warmup = knobs.seconds("warmup", 10);
        return knobs.build(() -> new LoadShape.Staircase(from, users, step, level, ramp, warmup),
                "from", "from", "to", "users", "step", "step", "level", "duration", "ramp", "ramp", "warmup", "warmup");
    }
}
