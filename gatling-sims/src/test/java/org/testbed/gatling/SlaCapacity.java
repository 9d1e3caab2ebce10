package org.testbed.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;

import io.gatling.javaapi.core.OpenInjectionStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.testbed.scenario.LoadShape;

/**
 * The capacity under a latency SLA (the cloud ARM studies), open model: arrival rate stepped from
 * {@code -DfromRps} (1000) by {@code -DstepRps} (1000) to {@code -DtoRps} (20000) requests per
 * second, each step held for {@code -Dduration} (30 s), after {@code -Dwarmup} (10 s) at the first
 * rate that is reported but never judged (a cold JVM's first seconds say nothing about capacity). A step meets the SLA when its p99 is at most
 * {@code -DslaP99Ms} (5 ms), its failed requests are within {@code -DmaxFailedPct}, and at least 90%
 * of the offered requests were sent (the load generator kept up).
 *
 * <p>The result, the highest rate that met the SLA with every lower step meeting it too, is
 * reported three ways: a console line ({@code SLA p99 <= 5 ms: capacity 3000 req/s, first broken at
 * level-04}), the {@code sla} object of summary.json ({@code capacity_rps}, {@code first_breach}),
 * and its {@code verdicts} per level. A run that only finds the limit
 * passes; its assertions still fail on failed requests beyond {@code -DmaxFailedPct} (overload that
 * shows as errors rather than latency), or on a global {@code -Dp99Ms} if given. With
 * {@code -DstopOnBreach=true} (default) injection stops about a second into the step after the
 * first broken one, since higher rates cannot raise the capacity.
 *
 * <p>Each arrival is a new user with one request; connections are shared (see {@link ArrivalRate}).
 */
public class SlaCapacity extends TestbedSimulation {
    private static final Duration GRACE = Duration.ofSeconds(1);

    private final LoadShape.SlaCapacity sla;
    private final boolean stopOnBreach = knobs.bool("stopOnBreach", true);
    private ScheduledExecutorService watcher;

    public SlaCapacity() {
        sla = shape(fromKnobs(knobs));
        start(sla, workload("mix"), "open");
        List<OpenInjectionStep> steps = new ArrayList<>();
        if (!sla.warmup().isZero()) {
            steps.add(constantUsersPerSec(sla.from()).during(sla.warmup()));
        }
        for (double rate : sla.rates()) {
            steps.add(constantUsersPerSec(rate).during(sla.level()));
        }
        run(oneShotUsers("sla-capacity").injectOpen(steps), true);
    }

    /** The shape the knobs ask for. */
    static LoadShape.SlaCapacity fromKnobs(Knobs knobs) {
        double from = knobs.decimal("fromRps", 1000);
        double to = knobs.decimal("toRps", 20000);
        double step = knobs.decimal("stepRps", 1000);
        Duration level = knobs.seconds("duration", 30);
        double p99 = knobs.decimal("slaP99Ms", 5);
        Duration warmup = knobs.seconds("warmup", 10);
        return knobs.build(() -> new LoadShape.SlaCapacity(from, to, step, level, p99, warmup),
                "from", "fromRps", "to", "toRps", "step", "stepRps", "level", "duration", "p99Ms", "slaP99Ms",
                "warmup", "warmup");
    }

    @Override
    public void before() {
        super.before();
        if (stopOnBreach) {
            watcher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "sla-watcher");
                t.setDaemon(true);
                return t;
            });
            watcher.scheduleWithFixedDelay(this::watch, 200, 200, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void after() {
        if (watcher != null) {
            watcher.shutdownNow();
        }
        super.after();
    }

    /** Judges each level once it is complete; the first broken one stops the injection. */
    private void watch() {
        int last = stats.lastCompleteWindow(GRACE);
        for (int i = 0; i <= last && stopReason == null; i++) {
            RunStats.Row row = stats.windowRow(i);
            if (!row.window().equals(LoadShape.WARMUP) && !meets(row)) {
                stopReason = String.format(Locale.ROOT, "SLA broken at %s (%s req/s): p99 %.3f ms, %.2f%% errors",
                        row.window(), Summary.num(row.load()), row.p99(), row.errorPct());
                System.out.println("testbed: " + stopReason + "; stopping the injection");
            }
        }
    }

    private boolean meets(RunStats.Row row) {
        return row.requests() > 0
                && row.p99() <= sla.p99Ms()
                && row.errorPct() <= maxFailedPct
                && row.requests() >= 0.9 * row.load() * row.seconds();
    }

    @Override
    protected Summary.Sla sla(List<RunStats.Row> windows) {
        Map<String, Boolean> verdicts = new LinkedHashMap<>();
        double capacity = 0;
        String firstBreach = null;
        for (RunStats.Row row : windows) {
            if (row.window().equals(LoadShape.WARMUP)) {
                continue; // reported, never judged
            }
            if (row.requests() == 0 || firstBreach != null) {
                break; // not reached, or after the first breach: cannot raise the capacity (and may be cut short)
            }
            boolean ok = meets(row);
            verdicts.put(row.window(), ok);
            if (ok) {
                capacity = row.load();
            } else {
                firstBreach = row.window();
            }
        }
        return new Summary.Sla(sla.p99Ms(), maxFailedPct, capacity, firstBreach, verdicts);
    }
}
