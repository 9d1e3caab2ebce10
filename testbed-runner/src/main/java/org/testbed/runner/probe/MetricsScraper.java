package org.testbed.runner.probe;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.testbed.scenario.LoopbackTls;

/**
 * With {@code --metrics}, scrapes the server's {@code GET /testbed/metrics} once a second during a
 * step, as Prometheus would, so that what observability costs includes being read: the scrape's
 * CPU lands in the server's CPU per request like the recording's does. One daemon thread per step,
 * stopped when the step ends; a scrape that fails is counted, never fatal (the step's own requests
 * say whether the server coped).
 */
final class MetricsScraper implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private final Thread thread;
    private final AtomicLong scrapes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private volatile String lastFailure = "";

    private MetricsScraper(URI base) {
        HttpClient client = LoopbackTls.http11(base.getScheme()).connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/testbed/metrics")).timeout(Duration.ofSeconds(2)).GET().build();
        thread = new Thread(() -> scrapeUntilInterrupted(client, request), "metrics-scraper");
        thread.setDaemon(true);
    }

    /** Starts scraping {@code base}'s metrics endpoint, the first scrape at once. */
    static MetricsScraper start(URI base) {
        MetricsScraper scraper = new MetricsScraper(base);
        scraper.thread.start();
        return scraper;
    }

    private void scrapeUntilInterrupted(HttpClient client, HttpRequest request) {
        while (!Thread.currentThread().isInterrupted()) {
            long next = System.nanoTime() + INTERVAL.toNanos();
            try {
                HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                scrapes.incrementAndGet();
                bytes.addAndGet(response.body().length);
                if (response.statusCode() != 200) {
                    failures.incrementAndGet();
                    lastFailure = "status " + response.statusCode();
                }
            } catch (IOException e) {
                scrapes.incrementAndGet();
                failures.incrementAndGet();
                lastFailure = e.toString();
            } catch (InterruptedException e) {
                return;
            }
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    long scrapes() {
        return scrapes.get();
    }

    long failures() {
        return failures.get();
    }

    /** One line for the raw file. */
    String describe() {
        long n = scrapes.get();
        return String.format(Locale.ROOT, "metrics scraped %d time(s), once per %d s (%d failed%s), %.0f bytes each on average",
                n, INTERVAL.toSeconds(), failures.get(), failures.get() == 0 ? "" : ", last: " + lastFailure,
                n == 0 ? 0.0 : (double) bytes.get() / n);
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(5_000);
    }
}
