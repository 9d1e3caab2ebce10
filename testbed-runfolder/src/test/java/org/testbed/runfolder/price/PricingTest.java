package org.testbed.runfolder.price;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.stats.Spread;

/** The cost of a million requests, and the share of its machine a server pays for. */
class PricingTest {

    @Test
    void aMillionRequestsCostAnHourOfTheServersShareOverTheRequestsOfThatHour() {
        Pricing half = new Pricing(0.0416, ServerShare.of("0", 2), "--price-per-hour", Optional.empty());
        // 20 000 req/s is 72 million requests an hour; half of 0.0416 spread over them, per million:
        assertThat(half.costPerMillion(20_000)).isCloseTo(0.0208 / 72, within(1e-15));
        assertThat(half.hourly()).isCloseTo(0.0208, within(1e-15));
        // Twice the throughput is half the cost; a step that answered nothing has none.
        assertThat(half.costPerMillion(40_000)).isCloseTo(half.costPerMillion(20_000) / 2, within(1e-15));
        assertThat(half.costPerMillion(0)).isNaN();
        assertThat(half.costPerMillion(Double.NaN)).isNaN();
        assertThat(Pricing.costPerMillion(3.6, 1, 1000)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void aPinnedServerPaysForItsCpusAnUnpinnedOrRemoteOneForTheWholeMachine() {
        assertThat(ServerShare.of("0", 2).fraction()).isEqualTo(0.5);
        assertThat(ServerShare.of("0", 2).reason()).isEqualTo("the server was pinned to 1 of the machine's 2 CPUs (0)");
        assertThat(ServerShare.of("0,2-3", 8).fraction()).isEqualTo(3.0 / 8);
        assertThat(ServerShare.of("0-7", 8).fraction()).isEqualTo(1.0);
        assertThat(ServerShare.of("", 2).fraction()).isEqualTo(1.0);
        assertThat(ServerShare.of("", 2).reason()).contains("not pinned");
        assertThat(ServerShare.of("0", 0).fraction()).as("CPU count unknown").isEqualTo(1.0);
        assertThat(ServerShare.ownMachine().fraction()).isEqualTo(1.0);
        assertThat(ServerShare.ownMachine().reason()).contains("a machine of its own");
        assertThatThrownBy(() -> ServerShare.of("zero", 2)).hasMessage("'zero' is not a CPU list like 0, 0-3 or 0,2");

        Pricing pinned = new Pricing(0.0416, ServerShare.of("0", 2), "x", Optional.empty());
        Pricing remote = new Pricing(0.0416, ServerShare.ownMachine(), "x", Optional.empty());
        assertThat(remote.costPerMillion(1000) / pinned.costPerMillion(1000)).isCloseTo(2, within(1e-12));
    }

    @Test
    void aStepsCostIntervalIsItsThroughputIntervalTurnedOver() {
        Pricing p = new Pricing(0.0416, ServerShare.of("0", 2), "x", Optional.empty());
        StepRecord.Cost cost = StepRecord.Cost.of(p, 20_000, new Spread(6, 20_000, 18_000, 21_000, 19_000, 22_000, 0.95));
        assertThat(cost.perMillion()).isCloseTo(p.costPerMillion(20_000), within(1e-15));
        assertThat(cost.ciLow()).as("the cost at the high end of the throughput").isCloseTo(p.costPerMillion(22_000), within(1e-15));
        assertThat(cost.ciHigh()).isCloseTo(p.costPerMillion(19_000), within(1e-15));
        assertThat(cost.ciLow()).isLessThan(cost.perMillion()).isLessThan(cost.ciHigh());
        assertThat(cost.pricePerHour()).isEqualTo(0.0416);
        assertThat(cost.serverShare()).isEqualTo(0.5);
        assertThat(StepRecord.Cost.NONE.priced()).isFalse();
    }

    @Test
    void pricesAreWrittenAsGivenAndCostsWithSignificantDigits() {
        assertThat(Pricing.text(0.0416)).isEqualTo("0.0416");
        assertThat(Pricing.text(3)).isEqualTo("3");
        assertThat(Pricing.text(0.00001)).isEqualTo("0.00001");
        assertThat(Pricing.text(Double.NaN)).isEmpty();
        assertThat(Pricing.cost(0.0208 / 72)).isEqualTo("0.000288889");
        assertThat(Pricing.cost(1234.5678)).isEqualTo("1234.57");
        assertThat(Pricing.cost(Double.NaN)).isEmpty();
        assertThat(new Pricing(0.0416, ServerShare.of("0", 2), "x", Optional.empty()).describe())
                .isEqualTo("0.0416 per hour × server share 0.5 (the server was pinned to 1 of the machine's 2 CPUs (0))");
        assertThatThrownBy(() -> new Pricing(0, ServerShare.ownMachine(), "x", Optional.empty()))
                .hasMessageContaining("a number > 0");
    }
}
