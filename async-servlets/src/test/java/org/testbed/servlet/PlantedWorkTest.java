package org.testbed.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.server.ServerStartup;
import org.testbed.servlet.tomcat.TomcatServer;

/**
 * {@code TESTBED_WORK_US} reaches a real served variant: servlet-tomcat-async, started from its
 * factory against a real memcached, costs this process at least half the planted CPU more for the
 * same item requests with {@code --work-us 2000} than without. A lower bound on CPU time only: a busy
 * machine can make the work take longer, never cost less CPU, so the check cannot flake on timing.
 *
 * <p>The CPU counted is that of the process's Java threads (Tomcat's, the client's), not of the JIT
 * compiler and GC threads: in a test JVM that has just started Tomcat, compiling its request path
 * costs more than a second in the background, several times the 400 ms planted here, and by when it
 * happens it would fall in either window.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
class PlantedWorkTest {
    private static final int REQUESTS = 200;
    private static final int WORK_US = 2000;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void plantedWorkCostsTheServerAtLeastHalfItsMicrosecondsPerItemRequest(MemcachedProcess memcached) throws Exception {
        // Without work first, twice: the first pass (five times as long) runs the request path of server
        // and client until it is compiled, so that the baseline is not the interpreter's cost.
        served(memcached, 0, "warm", 5 * REQUESTS);
        long withoutNanos = served(memcached, 0, "plain", REQUESTS);
        long withNanos = served(memcached, WORK_US, "work", REQUESTS);

        long extraMicros = (withNanos - withoutNanos) / 1000;
        System.out.printf("planted work: %d item requests cost %d ms of CPU without work, %d ms with %d us each%n",
                REQUESTS, withoutNanos / 1_000_000, withNanos / 1_000_000, WORK_US);
        assertThat(extraMicros).as("process CPU of %d item requests with --work-us %d over without (%d ms against %d ms)",
                REQUESTS, WORK_US, withNanos / 1_000_000, withoutNanos / 1_000_000)
                .isGreaterThanOrEqualTo(REQUESTS * WORK_US / 2L);
    }

    /** Starts servlet-tomcat-async with {@code workMicros}, and returns this process's CPU time over {@code requests} item requests. */
    private long served(MemcachedProcess memcached, int workMicros, String keys, int requests) throws Exception {
        TestbedConfig config = TestbedConfig.parse("test", new String[] {"--host", "127.0.0.1", "--port", "0",
                "--mode", "async", "--memcached-servers", memcached.address(), "--work-us", Integer.toString(workMicros)},
                Map.of(), new Properties());
        Tomcat tomcat = TomcatServer.newServer(config, ServerStartup.connectStore(config));
        TomcatServer.start(tomcat);
        try {
            URI base = URI.create("http://127.0.0.1:" + TomcatServer.localPort(tomcat) + "/testbed/items/");
            long before = processCpuNanos();
            // PUT, GET, POST, DELETE of one item, as the mix sends them: every one an item request.
            for (int i = 0; i < requests / 4; i++) {
                URI item = base.resolve(keys + "-" + i);
                String body = "{\"name\":\"n" + i + "\",\"payload\":\"p\"}";
                expect(201, HttpRequest.newBuilder(item).PUT(HttpRequest.BodyPublishers.ofString(body)));
                expect(200, HttpRequest.newBuilder(item).GET());
                expect(200, HttpRequest.newBuilder(item).POST(HttpRequest.BodyPublishers.ofString(body)));
                expect(204, HttpRequest.newBuilder(item).DELETE());
            }
            return processCpuNanos() - before;
        } finally {
            TomcatServer.stop(tomcat);
        }
    }

    private void expect(int status, HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = client.send(request.header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s %s: %s", response.request().method(), response.uri(), response.body())
                .isEqualTo(status);
    }

    /** The CPU time so far of every live Java thread of this process (a thread ended meanwhile is left out of both). */
    private static long processCpuNanos() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long cpu : threads.getThreadCpuTime(threads.getAllThreadIds())) {
            sum += Math.max(0, cpu);
        }
        return sum;
    }
}
