package org.testbed.runner.probe;

import org.testbed.runner.host.RunningServer;

/**
 * Under the {@code metrics} condition, the server's metrics scraped once a second through the window
 * ({@link MetricsScraper}), as Prometheus would: being read is part of what metrics cost. The raw
 * file says how many scrapes there were and how many failed.
 */
final class MetricsScrapeProbe implements Probe {
    private final RunningServer server;
    private MetricsScraper scraper;

    MetricsScrapeProbe(RunningServer server) {
        this.server = server;
    }

    @Override
    public String observes() {
        return "metrics scrape";
    }

    @Override
    public void beforeWindow() {
        scraper = MetricsScraper.start(server.baseUri());
    }

    @Override
    public void afterWindow() throws InterruptedException {
        scraper.close();
    }

    @Override
    public ProbeResult result() {
        return scraper == null ? ProbeResult.NONE : ProbeResult.NONE.withRawText("\n" + scraper.describe() + "\n");
    }
}
