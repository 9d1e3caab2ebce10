package org.testbed.helidon;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.server.ServerStartup;

/**
 * Requests run on virtual threads, never on platform threads: while {@value #REQUESTS} requests
 * sleep in {@code /testbed/delay}, the JDK's thread dump (which lists virtual threads too) shows
 * each sleeping in {@code Delay.sleep} on a virtual thread, and no platform thread of the JVM has
 * that frame on its stack.
 */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
class RequestsOnVirtualThreadsTest {
    private static final int REQUESTS = 12;
    private static final String SLEEPING = "org.testbed.service.Delay.sleep";

    @Test
    void delayedRequestsWaitOnVirtualThreads(MemcachedProcess memcached, @TempDir Path dumps) throws Exception {
        TestbedConfig config = TestbedConfig.parse(HelidonSeServer.VARIANT, new String[] {"--host", "127.0.0.1",
                "--port", "0", "--memcached-servers", memcached.address()}, Map.of(), new Properties(), Mode.VIRTUAL);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (HelidonSeServer server = HelidonSeServer.start(config, ServerStartup.connectStore(config))) {
            URI delay = URI.create("http://127.0.0.1:" + server.port() + "/testbed/delay?ms=3000");
            List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                pending.add(client.sendAsync(HttpRequest.newBuilder(delay).build(), HttpResponse.BodyHandlers.ofString()));
            }
            List<String> sleepers = awaitSleepers(dumps);

            assertThat(sleepers).as("threads in %s", SLEEPING).hasSize(REQUESTS)
                    .allSatisfy(header -> assertThat(header).matches("#\\d+ \".*\" virtual\\b.*"));
            assertThat(Thread.getAllStackTraces().values()).as("platform threads")
                    .noneSatisfy(stack -> assertThat(Arrays.toString(stack)).contains(SLEEPING));
            for (CompletableFuture<HttpResponse<String>> response : pending) {
                assertThat(response.get().statusCode()).isEqualTo(200);
            }
        }
    }

    /** The header lines of the dump's threads in {@link #SLEEPING}, once all requests are there. */
    private static List<String> awaitSleepers(Path dumps) throws Exception {
        HotSpotDiagnosticMXBean diagnostics = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        List<String> sleepers = List.of();
        for (int attempt = 0; attempt < 50 && sleepers.size() < REQUESTS; attempt++) {
            Path dump = dumps.resolve("threads-" + attempt + ".txt");
            diagnostics.dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
            sleepers = sleepers(Files.readString(dump));
            Thread.sleep(50);
        }
        return sleepers;
    }

    /** A plain-text dump is blocks separated by blank lines, each headed {@code #TID "NAME" [virtual] ...}. */
    private static List<String> sleepers(String dump) {
        List<String> headers = new ArrayList<>();
        for (String block : dump.split("\\R\\R")) {
            String trimmed = block.strip();
            if (trimmed.startsWith("#") && trimmed.contains(SLEEPING)) {
                headers.add(trimmed.lines().findFirst().orElseThrow().strip());
            }
        }
        return headers;
    }
}
