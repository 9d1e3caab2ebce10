package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.contract.HttpProbe.assertProblem;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.config.TestbedConfig;
import org.testbed.contract.HttpProbe.Reply;
import org.testbed.variant.Variant;

/**
 * {@code TESTBED_GZIP} and {@code TESTBED_METRICS} (docs/CONTRACT.md, "Compression" and "Metrics")
 * on every variant: each is started twice, once with both settings on and once with the defaults
 * (both off), and the suite checks what each answers with and without {@code Accept-Encoding: gzip}.
 */
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
@ExtendWith(ContractSummary.class)
class GzipAndMetricsIT {
    private static final Map<String, String> ACCEPT_GZIP = Map.of("Accept-Encoding", "gzip");
    private static final int MIN = TestbedConfig.GZIP_MIN_BYTES;
    /** {@code testbed_requests_seconds_count{method="GET",route="plaintext",status="200"} 3}. */
    private static final Pattern REQUEST_COUNT = Pattern.compile(
            "^testbed_requests_seconds_count\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);

    private static RunningVariant on;
    private static RunningVariant off;

    /** The variant comes in through the constructor, which lets the class-level hooks take it too. */
    GzipAndMetricsIT(Variant variant) {
    }

    @BeforeParameterizedClassInvocation
    static void start(Variant variant) throws IOException {
        ContractSummary.begin(variant.name());
        on = RunningVariant.start(variant, List.of("--gzip", "--metrics"), "gzip-metrics");
        off = RunningVariant.start(variant, List.of(), "settings-off");
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        ContractSummary.end("gzip and metrics");
        for (RunningVariant running : new RunningVariant[] {on, off}) {
            if (running != null) {
                running.close();
            }
        }
        on = null;
        off = null;
    }

    // ---- TESTBED_GZIP ----

    @Test
    void aLargeAnswerIsGzippedOnlyForAClientThatAcceptsGzip() {
        on.http.get("/testbed/metrics"); // every series the next two scrapes show exists by now
        Reply identity = on.http.get("/testbed/metrics");
        assertThat(identity.header("Content-Encoding")).as("no Accept-Encoding: identity").isEmpty();
        assertThat(identity.body().length).as("the scrape is larger than the minimum").isGreaterThanOrEqualTo(MIN);

        Reply gzipped = on.http.exchange("GET", "/testbed/metrics", null, null, ACCEPT_GZIP);
        assertThat(gzipped.status()).isEqualTo(200);
        assertThat(gzipped.header("Content-Encoding")).as("Accept-Encoding: gzip").hasValueSatisfying(
                encoding -> assertThat(encoding).isEqualToIgnoringCase("gzip"));
        assertThat(gzipped.headers().allValues("Vary")).as("Vary").anySatisfy(
                vary -> assertThat(vary).containsIgnoringCase("Accept-Encoding"));
        assertThat(gzipped.header("Server")).contains("testbed");
        assertThat(gzipped.header("Date")).isPresent();
        gzipped.header("Content-Length").ifPresent(length -> assertThat(length).as("Content-Length of the gzip body")
                .isEqualTo(Integer.toString(gzipped.body().length)));
        assertThat(gzipped.body().length).as("compressed").isLessThan(identity.body().length);
        // Counters move between two scrapes; families only appear (a GC family after the first
        // collection of its kind), so the later, inflated scrape has every family of the first.
        assertThat(families(inflate(gzipped.body()))).containsAll(families(identity.text()));
    }

    @Test
    void answersBelowTheMinimumAreNotCompressed() {
        Reply json = on.http.send("GET", "/testbed/json", null, null, ACCEPT_GZIP);
        assertThat(json.body().length).isLessThan(MIN);
        assertThat(json.header("Content-Encoding")).as("/json, %d bytes", json.body().length).isEmpty();
        assertThat(json.json().path("message").asText()).isEqualTo("Hello, World!");

        Reply problem = on.http.send("GET", "/testbed/nope", null, null, ACCEPT_GZIP);
        assertProblem("unknown path with gzip accepted", problem, 404);
        assertThat(problem.body().length).isLessThan(MIN);
        assertThat(problem.header("Content-Encoding")).as("a problem body of %d bytes", problem.body().length).isEmpty();
    }

    @Test
    void largeItemAnswersAreGzippedWithAWeakEtagThatIfMatchTakes() {
        String id = Items.newId("gzip");
        String path = Items.path(id);
        String payload = "x".repeat(4 * MIN);
        byte[] item = Items.item("large", payload).getBytes(StandardCharsets.UTF_8);
        Reply created = on.http.exchange("PUT", path, "application/json", item, ACCEPT_GZIP);
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("Content-Encoding")).as("PUT answer of %d bytes", 4 * MIN).hasValueSatisfying(
                encoding -> assertThat(encoding).isEqualToIgnoringCase("gzip"));
        assertThat(created.etag()).as("a weak ETag: it names the version, whatever the content-coding").startsWith("W/\"");

        Reply read = on.http.exchange("GET", path, null, null, ACCEPT_GZIP);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.header("Content-Encoding")).as("GET of a large item").hasValueSatisfying(
                encoding -> assertThat(encoding).isEqualToIgnoringCase("gzip"));
        assertThat(read.headers().allValues("Vary")).as("Vary").anySatisfy(
                vary -> assertThat(vary).containsIgnoringCase("Accept-Encoding"));
        assertThat(read.body().length).as("compressed").isLessThan(MIN);
        assertThat(read.etag()).isEqualTo(created.etag());
        Reply identity = on.http.send("GET", path, null, null, Map.of());
        assertThat(identity.header("Content-Encoding")).as("GET without Accept-Encoding").isEmpty();
        // Jetty gives the gzip answer a tag of its own (W/"1a--gzip", and takes it back in If-Match).
        assertThat(identity.etag()).as("a weak ETag without gzip too").startsWith("W/\"");
        assertThat(inflate(read.body())).isEqualTo(identity.text());
        assertThat(identity.json().path("payload").asText()).isEqualTo(payload);

        // Compare-and-swap with a tag as the server sent it, with gzip or without: the current one
        // updates, a stale one is 412 and changes nothing.
        Reply updated = on.http.exchange("POST", path, "application/json",
                Items.item("larger", payload).getBytes(StandardCharsets.UTF_8),
                Map.of("Accept-Encoding", "gzip", "If-Match", read.etag()));
        assertThat(updated.status()).as("If-Match with the weak ETag of the gzip answer").isEqualTo(200);
        assertThat(updated.etag()).startsWith("W/\"").isNotEqualTo(read.etag());
        Reply current = on.http.send("GET", path, null, null, Map.of());
        Reply again = on.http.send("POST", path, "application/json",
                Items.item("largest", payload).getBytes(StandardCharsets.UTF_8), Map.of("If-Match", current.etag()));
        assertThat(again.status()).as("If-Match with the weak ETag of the identity answer").isEqualTo(200);
        for (String stale : new String[] {read.etag(), current.etag()}) {
            Reply refused = on.http.send("POST", path, "application/json",
                    Items.item("stale", payload).getBytes(StandardCharsets.UTF_8), Map.of("If-Match", stale));
            assertProblem("If-Match with the stale weak ETag " + stale, refused, 412);
        }
        assertThat(on.http.send("GET", path, null, null, Map.of()).json().path("name").asText()).isEqualTo("largest");
    }

    @Test
    void withGzipOffNothingIsCompressed() {
        String id = Items.newId("nogzip");
        String payload = "y".repeat(4 * MIN);
        assertThat(off.http.put(Items.path(id), Items.item("large", payload)).status()).isEqualTo(201);
        for (String path : new String[] {Items.path(id), "/testbed/json", "/testbed/plaintext", "/testbed/metrics"}) {
            Reply reply = off.http.send("GET", path, null, null, ACCEPT_GZIP);
            assertThat(reply.header("Content-Encoding")).as("GET %s with gzip off", path).isEmpty();
        }
    }

    // ---- TESTBED_METRICS ----

    @Test
    void withMetricsOffTheScrapeIsTheUsual404() {
        assertProblem("GET /testbed/metrics with metrics off", off.http.get("/testbed/metrics"), 404);
    }

    @Test
    void theScrapeIsPrometheusTextWithJvmMetrics() {
        Reply scrape = on.http.get("/testbed/metrics");
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.header("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("text/plain").containsIgnoringCase("version=0.0.4"));
        assertThat(scrape.text())
                .contains("# TYPE jvm_memory_used_bytes gauge")
                .contains("jvm_memory_used_bytes{area=\"heap\"")
                .contains("# TYPE jvm_threads_live_threads gauge")
                .contains("# TYPE jvm_gc_memory_allocated_bytes_total counter")
                .contains("# TYPE process_cpu_usage gauge");
    }

    @Test
    void theRouteTimerCountsEveryAnsweredRequestByRouteMethodAndStatus() throws InterruptedException {
        String plaintext = "method=\"GET\",route=\"plaintext\",status=\"200\"";
        String unmatched = "method=\"GET\",route=\"unmatched\",status=\"404\"";
        String item = "method=\"GET\",route=\"item\",status=\"404\"";
        Map<String, Double> before = counts(on.http.get("/testbed/metrics").text());
        for (int i = 0; i < 3; i++) {
            assertThat(on.http.get("/testbed/plaintext").status()).isEqualTo(200);
        }
        assertThat(on.http.get("/testbed/no-such-path").status()).isEqualTo(404);
        assertThat(on.http.get(Items.path(Items.newId("absent"))).status()).isEqualTo(404);

        // A request is recorded once its answer is complete, which can be a moment after the
        // client has it: wait (bounded) for the three counts to arrive.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Map<String, Double> after;
        do {
            after = counts(on.http.get("/testbed/metrics").text());
        } while (!(grewBy(before, after, plaintext, 3) && grewBy(before, after, unmatched, 1)
                && grewBy(before, after, item, 1)) && System.nanoTime() < deadline && sleep());
        assertThat(after.getOrDefault(plaintext, 0.0) - before.getOrDefault(plaintext, 0.0))
                .as("count of %s", plaintext).isEqualTo(3.0);
        assertThat(after.getOrDefault(unmatched, 0.0) - before.getOrDefault(unmatched, 0.0))
                .as("count of %s (raw paths are never a label)", unmatched).isEqualTo(1.0);
        assertThat(after.getOrDefault(item, 0.0) - before.getOrDefault(item, 0.0))
                .as("count of %s (item ids are never a label)", item).isEqualTo(1.0);
        assertThat(after.keySet()).as("route labels").allSatisfy(labels -> assertThat(labels)
                .matches(".*route=\"(item|delay|plaintext|json|health|metrics|unmatched)\".*"));
    }

    private static boolean grewBy(Map<String, Double> before, Map<String, Double> after, String series, double by) {
        return after.getOrDefault(series, 0.0) - before.getOrDefault(series, 0.0) >= by;
    }

    private static boolean sleep() {
        try {
            Thread.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The request counts of a scrape, by their labels as written. */
    private static Map<String, Double> counts(String scrape) {
        Map<String, Double> counts = new TreeMap<>();
        Matcher count = REQUEST_COUNT.matcher(scrape);
        while (count.find()) {
            counts.put(count.group(1), Double.parseDouble(count.group(2)));
        }
        return counts;
    }

    /** The {@code # TYPE} lines of a scrape: its metric families. */
    private static Set<String> families(String scrape) {
        Set<String> families = new TreeSet<>();
        scrape.lines().filter(line -> line.startsWith("# TYPE ")).forEach(families::add);
        return families;
    }

    private static String inflate(byte[] gzip) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("not a gzip body", e);
        }
    }
}
