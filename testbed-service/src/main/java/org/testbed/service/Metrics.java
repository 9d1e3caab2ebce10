package org.testbed.service;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.testbed.config.TestbedConfig;
import org.testbed.http.Response;
import org.testbed.http.Routes;

/**
 * {@code TESTBED_METRICS}, written once for every variant: a timer per route, method and status, the
 * JVM's memory, GC, thread, class-loading and CPU metrics, and the Prometheus text that
 * {@code GET /testbed/metrics} answers. A variant's adapter only calls {@link #start} when a request
 * arrives and {@link #record} when its answer is complete, from whatever hook its server offers.
 *
 * <p>Off (the default) it is a no-op: nothing is registered or recorded, and the scrape is the
 * usual 404, so a benchmark without metrics measures no metrics code.
 */
public final class Metrics {
    /** Prometheus' text exposition format, version 0.0.4: what the scrape answers. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** The request timer; Prometheus shows it as {@code testbed_requests_seconds_count}, {@code _sum}, {@code _max}. */
    public static final String REQUEST_TIMER = "testbed.requests";
    /** The route of a request that matched none of the contract's paths (raw paths would be unbounded). */
    static final String UNMATCHED = "unmatched";

    private static final Metrics OFF = new Metrics(null);
    private static final Routes.Endpoint[] ENDPOINTS = Routes.Endpoint.values();
    private static final String[] METHODS = {"GET", "PUT", "POST", "DELETE", "OTHER"};
    private static final int ROUTES = ENDPOINTS.length + 1;
    private static final int STATUSES = 500; // 100..599

    private final PrometheusMeterRegistry registry;
    /**
     * The timers made so far, by route, method and status: building and registering a timer on
     * every request (tags sorted, an id looked up) cost a fifth of jetty-handler's /json
     * throughput; this costs one array read.
     */
    private final AtomicReferenceArray<Timer> timers;

    private Metrics(PrometheusMeterRegistry registry) {
        this.registry = registry;
        this.timers = registry == null ? null : new AtomicReferenceArray<>(ROUTES * METHODS.length * STATUSES);
    }

    /** Metrics as {@code TESTBED_METRICS} says: a new registry with the JVM's metrics, or {@link #off()}. */
    public static Metrics of(TestbedConfig config) {
        return config.metrics() ? prometheus() : off();
    }

    /** Records nothing; the scrape is a 404. */
    public static Metrics off() {
        return OFF;
    }

    /** A new Prometheus registry with the JVM's metrics bound to it. */
    public static Metrics prometheus() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        // Listens to the GC's notifications for the life of the process, as the server lives.
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        return new Metrics(registry);
    }

    public boolean enabled() {
        return registry != null;
    }

    /** The start of a request, to hand back to {@link #record}. */
    public long start() {
        return registry == null ? 0 : System.nanoTime();
    }

    /**
     * Records one answered request: its time since {@code startNanos}, under the route its raw path
     * matches ({@code item}, {@code plaintext}, ..., or {@code unmatched}), its method and status.
     */
    public void record(String method, String rawPath, int status, long startNanos) {
        if (registry == null) {
            return;
        }
        long nanos = System.nanoTime() - startNanos;
        Routes.Route route = Routes.match(rawPath);
        int routeIndex = route == null ? ENDPOINTS.length : route.endpoint().ordinal();
        int methodIndex = methodIndex(method);
        int statusIndex = Math.max(0, Math.min(STATUSES - 1, status - 100));
        int slot = (routeIndex * METHODS.length + methodIndex) * STATUSES + statusIndex;
        Timer timer = timers.get(slot);
        if (timer == null) {
            // Registering twice from racing threads gives the same timer: Micrometer keeps one per id.
            timer = Timer.builder(REQUEST_TIMER)
                    .description("Requests answered, by route, method and status")
                    .tag("route", routeName(rawPath))
                    .tag("method", METHODS[methodIndex])
                    .tag("status", Integer.toString(statusIndex + 100))
                    .register(registry);
            timers.set(slot, timer);
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The answer to {@code GET /testbed/metrics}: the scrape, or the usual 404 while metrics are off. */
    public Response scrape() {
        if (registry == null) {
            return Routes.notFound(Routes.BASE + "/metrics");
        }
        return Response.of(200, CONTENT_TYPE, registry.scrape().getBytes(StandardCharsets.UTF_8));
    }

    /** A bounded set of names for the route tag: the contract's endpoints, lower case. */
    static String routeName(String rawPath) {
        Routes.Route route = Routes.match(rawPath);
        return route == null ? UNMATCHED : route.endpoint().name().toLowerCase(Locale.ROOT);
    }

    /** The contract's methods as they are; anything else (HEAD, TRACE, garbage) as one value. */
    static String methodName(String method) {
        return METHODS[methodIndex(method)];
    }

    private static int methodIndex(String method) {
        return switch (method == null ? "" : method) {
            case "GET" -> 0;
            case "PUT" -> 1;
            case "POST" -> 2;
            case "DELETE" -> 3;
            default -> 4;
        };
    }
}
