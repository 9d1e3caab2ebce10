package org.testbed.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.Level;
import org.testbed.driver.LoadResult;
import org.testbed.driver.Target;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Workload;

/**
 * Real JMeter (the home this module's build lays out) against a tiny server on loopback that answers
 * the delay route {@value #ANSWER_MILLIS} ms late, so that the open model's last arrivals are still in
 * flight when the window ends and when JMeter's schedule is over: those are unfinished, never errors.
 */
class JMeterCutRequestsTest {
    /** Longer than the window and the schedule's closing pause: the last arrivals are cut by JMeter. */
    private static final int ANSWER_MILLIS = 1500;

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService threads;

    @BeforeEach
    void start() throws IOException {
        threads = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/testbed/delay", exchange -> {
            try {
                Thread.sleep(ANSWER_MILLIS);
                byte[] body = "Hello World!".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        server.setExecutor(threads);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        threads.shutdownNow();
    }

    @Test
    void requestsInFlightAtTheWindowsEndAreUnfinishedEvenWhenJMeterInterruptsThem() throws Exception {
        JMeterHome home = new JMeterHome(Path.of(JMeterHome.BUILT.substring("testbed-jmeter/".length())).toAbsolutePath());
        home.require();
        Target target = new Target("127.0.0.1", server.getAddress().getPort(), false);
        Workload delay = Workload.of("delay", Workload.Settings.defaults(new KeySpace("t", "cut")));
        Path work = dir.resolve("work");

        // 5 arrivals a second for the warm-up and a 1 s window, each answered 1.5 s later.
        LoadResult r = new JMeterDriver(home, work, Duration.ofSeconds(5)).run(target, delay, Level.open(5), Duration.ofSeconds(1), 1);

        assertThat(r.errors()).as("no error: the server answers every request right, late (" + r + ")").isZero();
        // The window's answers: the arrivals of the 1.5 s before it. In flight at its end: those of the 1.5 s
        // up to it, about 7, the last two of which JMeter interrupts when its schedule's pause is over.
        assertThat(r.requests()).as("answers in the window").isBetween(2L, 8L);
        assertThat(r.unfinished()).as("arrivals in flight when the window ended").isBetween(4L, 9L);
        assertThat(r.raw()).contains("unfinished=" + r.unfinished()).contains("warm-up: 2 s");
        assertThat(jmeterLog(work)).as("JMeter cut the last arrivals").contains("Will interrupt the threads");
    }

    private static String jmeterLog(Path work) throws IOException {
        try (Stream<Path> files = Files.walk(work)) {
            List<Path> logs = files.filter(p -> p.getFileName().toString().equals("jmeter.log")).toList();
            assertThat(logs).hasSize(1);
            return Files.readString(logs.get(0));
        }
    }
}
