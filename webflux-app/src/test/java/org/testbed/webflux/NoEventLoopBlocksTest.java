package org.testbed.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.EndpointSmoke;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;
import reactor.blockhound.BlockHound;
import reactor.netty.http.HttpResources;
import reactor.netty.resources.LoopResources;

/**
 * The promise of this variant, checked: no Reactor Netty event loop ever blocks. BlockHound's agent
 * watches every blocking JDK call (sleeps, parks, blocking socket and file I/O) made on a
 * {@code reactor-http-*} thread while every route is driven against a real memcached, with gzip and
 * metrics on so that their code runs too; each such call is recorded with its stack, and any is a
 * failure. A blocking call on those threads would stall every connection of that event loop.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NoEventLoopBlocksTest {
    /** Reactor Netty names its event-loop threads so, on epoll and on NIO alike. */
    private static final String EVENT_LOOP_PREFIX = "reactor-http-";
    private static final List<String> BLOCKING_CALLS = new CopyOnWriteArrayList<>();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private TestbedConfig config;
    private ConfigurableApplicationContext app;
    private URI base;

    @BeforeAll
    void installBlockHoundAndStart(MemcachedProcess memcached) {
        BlockHound.builder()
                .nonBlockingThreadPredicate(others -> others.or(thread -> thread.getName().startsWith(EVENT_LOOP_PREFIX)))
                // Record rather than throw: a throw would become some answer, or be swallowed.
                .blockingMethodCallback(method -> BLOCKING_CALLS.add(Thread.currentThread().getName() + " called "
                        + method + "\n" + stackOf(new Exception("here"))))
                .install();
        config = TestbedConfig.parse(SpringWebFluxApplication.FAMILY, new String[] {"--host", "127.0.0.1", "--port", "0",
                "--memcached-servers", memcached.address(), "--gzip", "--metrics"}, Map.of(), new Properties(), Mode.ASYNC);
        app = SpringWebFluxApplication.newServer(config);
        base = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort());
    }

    @AfterAll
    void stop() {
        app.close();
    }

    @BeforeEach
    void forgetEarlierCalls() {
        BLOCKING_CALLS.clear();
    }

    @Test
    void everyRouteIsServedWithoutBlockingAnEventLoop() throws Exception {
        EndpointSmoke.check(base, SpringWebFluxApplication.FAMILY, config.maxBody());
        String large = "{\"name\":\"large\",\"payload\":\"" + "z".repeat(4000) + "\"}";
        URI item = base.resolve("/testbed/items/blockhound-" + System.nanoTime());
        assertThat(send(HttpRequest.newBuilder(item).PUT(HttpRequest.BodyPublishers.ofString(large))
                .header("Content-Type", "application/json")).statusCode()).isEqualTo(201);
        HttpResponse<String> gzipped = send(HttpRequest.newBuilder(item).header("Accept-Encoding", "gzip"));
        assertThat(gzipped.headers().firstValue("Content-Encoding")).contains("gzip");
        assertThat(send(HttpRequest.newBuilder(base.resolve("/testbed/metrics"))).body()).contains("testbed_requests_seconds");

        assertThat(BLOCKING_CALLS).as("blocking calls on Reactor Netty's event loops").isEmpty();
    }

    /** The check itself bites: a sleep on one of the server's own event loops is caught. */
    @Test
    void aBlockingCallOnAnEventLoopIsCaught() throws Exception {
        LoopResources serverLoops = HttpResources.get();
        serverLoops.onServer(true).next().submit(() -> {
            Thread.sleep(1);
            return null;
        }).get(5, TimeUnit.SECONDS);

        assertThat(BLOCKING_CALLS).singleElement().asString().startsWith(EVENT_LOOP_PREFIX).contains("sleep");
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String stackOf(Throwable where) {
        StringWriter out = new StringWriter();
        where.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
