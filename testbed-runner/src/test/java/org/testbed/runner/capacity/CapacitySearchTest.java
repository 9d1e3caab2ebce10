package org.testbed.runner.capacity;

import org.testbed.runfolder.capacity.Sla;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CapacitySearchTest {
    private static final Sla SLA = Sla.parse("p99<=5ms");

    /** A server whose p99 stays at 1 ms up to {@code limit} req/s and is 50 ms above it. */
    private static DoubleFunction<CapacitySearch.Probe> serverWithLimit(double limit) {
        return rate -> {
            double p99 = rate <= limit ? 1 : 50;
            return new CapacitySearch.Probe(rate, p99, 0, SLA.met(p99, 0), false);
        };
    }

    private static CapacitySearch.Result run(CapacitySearch search, DoubleFunction<CapacitySearch.Probe> server) {
        List<Double> asked = new ArrayList<>();
        for (OptionalDouble next = search.next(); next.isPresent(); next = search.next()) {
            asked.add(next.getAsDouble());
            assertThat(asked).as("never asks for the same rate twice").doesNotHaveDuplicates();
            assertThat(asked.size()).as("converges").isLessThan(40);
            search.record(server.apply(next.getAsDouble()));
        }
        return search.result();
    }

    @ParameterizedTest
    @ValueSource(doubles = {137, 1000, 1333, 4321, 25_000, 99_000})
    void findsAKnownLimitToWithinThePrecision(double limit) {
        CapacitySearch.Result result = run(new CapacitySearch(SLA, 100, 100_000, 0.05), serverWithLimit(limit));
        assertThat(result.capacity()).isLessThanOrEqualTo(limit).isGreaterThanOrEqualTo(limit / 1.05 - 1);
        assertThat(result.reason()).contains("met p99<=5ms").contains("missed it").contains("p99 was 50.00 ms");
    }

    @Test
    void rampsByDoublingThenBisects() {
        CapacitySearch.Result result = run(new CapacitySearch(SLA, 100, 100_000, 0.05), serverWithLimit(1000));
        assertThat(result.probes()).extracting(CapacitySearch.Probe::rate)
                .startsWith(100.0, 200.0, 400.0, 800.0, 1600.0, 1200.0, 1000.0, 1100.0, 1050.0);
        assertThat(result.capacity()).isEqualTo(1000);
        assertThat(result.probes()).hasSize(9);
    }

    @Test
    void anUnreachableSlaIsCapacityZeroWithTheReason() {
        CapacitySearch search = new CapacitySearch(SLA, 100, 100_000, 0.05);
        CapacitySearch.Result result = run(search, serverWithLimit(50));
        assertThat(result.capacity()).isZero();
        assertThat(result.probes()).hasSize(1);
        assertThat(result.reason()).isEqualTo("even the lowest rate, 100 req/s, missed p99<=5ms: p99 was 50.00 ms");
    }

    @Test
    void errorsMissTheSlaWhateverTheLatency() {
        CapacitySearch.Result result = run(new CapacitySearch(SLA, 100, 100_000, 0.05),
                rate -> new CapacitySearch.Probe(rate, 0.5, rate > 500 ? 3 : 0, SLA.met(0.5, rate > 500 ? 3 : 0), false));
        assertThat(result.capacity()).isBetween(476.0, 500.0);
        assertThat(result.reason()).contains("3 request(s) failed");
    }

    @Test
    void meetingTheCeilingSaysItIsALowerBound() {
        CapacitySearch.Result result = run(new CapacitySearch(SLA, 100, 1000, 0.05), serverWithLimit(1e9));
        assertThat(result.probes()).extracting(CapacitySearch.Probe::rate).containsExactly(100.0, 200.0, 400.0, 800.0, 1000.0);
        assertThat(result.capacity()).isEqualTo(1000);
        assertThat(result.reason()).startsWith("at least 1,000 req/s").contains("--sla-rates");
    }

    @Test
    void aSaturatedLoadGeneratorEndsTheSearchAsALowerBound() {
        CapacitySearch.Result result = run(new CapacitySearch(SLA, 100, 100_000, 0.05),
                rate -> new CapacitySearch.Probe(rate, 1, 0, true, rate >= 400));
        assertThat(result.capacity()).isEqualTo(400);
        assertThat(result.reason()).startsWith("at least 400 req/s").contains("load generator was saturated");
    }

    @Test
    void aCoarsePrecisionStopsEarlier() {
        int fine = run(new CapacitySearch(SLA, 100, 100_000, 0.01), serverWithLimit(3000)).probes().size();
        int coarse = run(new CapacitySearch(SLA, 100, 100_000, 0.25), serverWithLimit(3000)).probes().size();
        assertThat(coarse).isLessThan(fine);
        assertThat(new CapacityPlan(SLA, 100, 100_000, 0.01).maxProbes()).isGreaterThanOrEqualTo(fine);
    }

    @Test
    void refusesABackwardRangeOrPrecision() {
        assertThatThrownBy(() -> new CapacitySearch(SLA, 200, 100, 0.05)).hasMessageContaining("lowest rate <= highest");
        assertThatThrownBy(() -> new CapacitySearch(SLA, 100, 200, 0)).hasMessageContaining("precision");
    }

    @Test
    void aPricedRunRecordsTheCostOfAMillionRequestsAtTheCapacityFound() {
        CapacitySearch search = new CapacitySearch(SLA, 100, 100_000, 0.05);
        CapacitySearch.Result result = run(search, serverWithLimit(3000));
        org.testbed.runfolder.price.Pricing price = new org.testbed.runfolder.price.Pricing(0.0416,
                org.testbed.runfolder.price.ServerShare.of("0", 2), "--price-per-hour", java.util.Optional.empty());
        org.testbed.runfolder.capacity.CapacityRecord priced = CapacitySearch.record("vertx", "mix",
                org.testbed.runfolder.Conditions.PLAIN, SLA, 1, result, java.util.Optional.of(price));
        assertThat(priced.costPerMillion()).isEqualTo(price.costPerMillion(result.capacity()));
        assertThat(priced.costPerMillion()).isCloseTo(0.0208 / (result.capacity() * 3600) * 1e6,
                org.assertj.core.api.Assertions.within(1e-12));
        assertThat(CapacitySearch.record("vertx", "mix", org.testbed.runfolder.Conditions.PLAIN, SLA, 1, result)
                .costPerMillion()).as("no price").isNaN();
        // Even the lowest rate missed: no capacity, no cost per request.
        CapacitySearch.Result none = run(new CapacitySearch(SLA, 100, 1000, 0.05), serverWithLimit(10));
        assertThat(CapacitySearch.record("vertx", "mix", org.testbed.runfolder.Conditions.PLAIN, SLA, 1, none,
                java.util.Optional.of(price)).costPerMillion()).isNaN();
    }

    @Test
    void recordingAfterTheEndIsABug() {
        CapacitySearch search = new CapacitySearch(SLA, 100, 100, 0.05);
        search.record(new CapacitySearch.Probe(100, 1, 0, true, false));
        assertThat(search.done()).isTrue();
        assertThatThrownBy(() -> search.record(new CapacitySearch.Probe(100, 1, 0, true, false)))
                .isInstanceOf(IllegalStateException.class);
    }
}
