package org.testbed.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The schedule lag and the requests in flight read back from an open-model step's samples. */
class ArrivalTimesTest {

    @Test
    void sendsOnTheEvenScheduleHaveNoLag() {
        ArrivalTimes arrivals = new ArrivalTimes(100); // one arrival every 10 ms
        for (int k = 0; k < 50; k++) {
            arrivals.add(sample(1_000 + 10L * k, 5, "local"));
        }
        assertThat(arrivals.scheduleLag().max()).isZero();
        assertThat(arrivals.peakInFlight()).as("each done before the next starts").isEqualTo(1);
    }

    @Test
    void aGeneratorThatFellBehindShowsItsLagAndTheRequestsPileUp() {
        ArrivalTimes arrivals = new ArrivalTimes(100);
        for (int k = 0; k < 10; k++) {
            arrivals.add(sample(1_000 + 10L * k, 50, "local"));
        }
        // A 40 ms stall: the next ten threads start 40 ms late, in the order JMeter happened to write them.
        for (int k = 19; k >= 10; k--) {
            arrivals.add(sample(1_040 + 10L * k, 50, "local"));
        }
        assertThat(arrivals.scheduleLag().max()).as("HdrHistogram keeps 3 digits").isCloseTo(40.0, within(0.1));
        assertThat(arrivals.scheduleLag().p50()).isZero();
        assertThat(arrivals.peakInFlight()).as("50 ms responses every 10 ms").isEqualTo(5);
    }

    @Test
    void aLateFirstSendDoesNotHideTheLagOfTheOthers() {
        ArrivalTimes arrivals = new ArrivalTimes(100);
        arrivals.add(sample(1_030, 5, "local")); // the first thread, 30 ms late (a cold JVM); the rest on time
        for (int k = 1; k < 20; k++) {
            arrivals.add(sample(1_000 + 10L * k, 5, "local"));
        }
        // Sorted, the sends are 1010, 1020, 1030, 1030, 1040...: the schedule can start no later than 1000, so
        // the first three are 10 ms late at least. A lower bound: the late thread was 30 ms late.
        assertThat(arrivals.scheduleLag().max()).isCloseTo(10.0, within(0.1));
    }

    @Test
    void eachEngineRunsItsOwnSchedule() {
        ArrivalTimes arrivals = new ArrivalTimes(100);
        for (int k = 0; k < 20; k++) {
            arrivals.add(sample(1_000 + 10L * k, 1, "1"));
            arrivals.add(sample(1_003 + 10L * k, 1, "2")); // the second engine started 3 ms later: not lag
        }
        assertThat(arrivals.scheduleLag().max()).isZero();
        assertThat(arrivals.peakInFlight()).isEqualTo(1);
    }

    private static JtlReader.Sample sample(long start, long elapsed, String engine) {
        return new JtlReader.Sample(start, elapsed, "GET", "200", true, "", engine);
    }
}
