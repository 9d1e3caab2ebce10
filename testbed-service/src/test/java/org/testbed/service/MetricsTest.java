package org.testbed.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.testbed.config.TestbedConfig;
import org.testbed.http.MediaTypes;
import org.testbed.http.Response;

class MetricsTest {

    @Test
    void offRecordsNothingAndTheScrapeIsA404Problem() {
        Metrics metrics = Metrics.of(TestbedConfig.parse("t", new String[0], Map.of(), new Properties()));
        assertThat(metrics.enabled()).isFalse();
        metrics.record("GET", "/testbed/plaintext", 200, metrics.start());
        Response scrape = metrics.scrape();
        assertThat(scrape.status()).isEqualTo(404);
        assertThat(scrape.contentType()).isEqualTo(MediaTypes.PROBLEM_JSON);
    }

    @Test
    void onTheScrapeHasTheRequestTimerByRouteMethodAndStatusAndTheJvmMetrics() {
        Metrics metrics = Metrics.of(TestbedConfig.parse("t", new String[] {"--metrics"}, Map.of(), new Properties()));
        assertThat(metrics.enabled()).isTrue();
        metrics.record("GET", "/testbed/items/a", 200, metrics.start());
        metrics.record("GET", "/testbed/items/b", 200, metrics.start());
        metrics.record("HEAD", "/no/such/path", 404, metrics.start());

        Response scrape = metrics.scrape();
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.contentType()).isEqualTo(Metrics.CONTENT_TYPE);
        assertThat(new String(scrape.body(), StandardCharsets.UTF_8))
                .contains("testbed_requests_seconds_count{method=\"GET\",route=\"item\",status=\"200\"} 2")
                .contains("testbed_requests_seconds_count{method=\"OTHER\",route=\"unmatched\",status=\"404\"} 1")
                .doesNotContain("items/a")
                .contains("jvm_memory_used_bytes{area=\"heap\"")
                .contains("jvm_threads_live_threads")
                .contains("jvm_gc_memory_allocated_bytes_total");
    }

    @Test
    void routesAreTheContractsEndpointsNeverRawPaths() {
        assertThat(Metrics.routeName("/testbed/items/x-1")).isEqualTo("item");
        assertThat(Metrics.routeName("/testbed/delay")).isEqualTo("delay");
        assertThat(Metrics.routeName("/testbed/metrics")).isEqualTo("metrics");
        assertThat(Metrics.routeName("/testbed/items/a/b")).isEqualTo(Metrics.UNMATCHED);
        assertThat(Metrics.routeName("/actuator")).isEqualTo(Metrics.UNMATCHED);
        assertThat(Metrics.routeName(null)).isEqualTo(Metrics.UNMATCHED);
        assertThat(Metrics.methodName("DELETE")).isEqualTo("DELETE");
        assertThat(Metrics.methodName("TRACE")).isEqualTo("OTHER");
        assertThat(Metrics.methodName(null)).isEqualTo("OTHER");
    }
}
