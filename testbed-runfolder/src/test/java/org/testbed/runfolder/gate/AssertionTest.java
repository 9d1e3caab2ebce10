package org.testbed.runfolder.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.gate.Assertion.Op;
import org.testbed.runfolder.figure.Figure;

/** --assert: its grammar, and the decision from a figure or its interval. */
class AssertionTest {
    private static final double NONE = Double.NaN;

    @Test
    void readsEachMetricWithItsUnit() {
        assertThat(Assertion.parse("p99<=5ms")).isEqualTo(
                new Assertion("p99<=5ms", Optional.empty(), Figure.P99, Op.LE, 5, "ms"));
        assertThat(Assertion.parse(" P99 <= 5000 us ").bound()).as("held in ms").isEqualTo(5.0);
        assertThat(Assertion.parse(" P99 <= 5000 us ").label()).isEqualTo("p99<=5000us");
        assertThat(Assertion.parse("p99.9<1s")).isEqualTo(new Assertion("p99.9<1s", Optional.empty(), Figure.P999, Op.LT, 1000, "s"));
        assertThat(Assertion.parse("p999<1s").figure()).isEqualTo(Figure.P999);
        assertThat(Assertion.parse("p50<=0.25ms").bound()).isEqualTo(0.25);
        assertThat(Assertion.parse("p90<2ms").figure()).isEqualTo(Figure.P90);
        assertThat(Assertion.parse("errors=0")).isEqualTo(new Assertion("errors=0", Optional.empty(), Figure.ERRORS, Op.EQ, 0, ""));
        assertThat(Assertion.parse("errors==0").op()).isEqualTo(Op.EQ);
        assertThat(Assertion.parse("errors<=10").op()).isEqualTo(Op.LE);
        assertThat(Assertion.parse("rps>=1000")).isEqualTo(new Assertion("rps>=1000", Optional.empty(), Figure.RPS, Op.GE, 1000, ""));
        assertThat(Assertion.parse("rps>1500.5").bound()).isEqualTo(1500.5);
        assertThat(Assertion.parse("cpu<=50us").bound()).isEqualTo(0.05);
        // A size is held in bytes: kB is 1000 of them, KiB 1024; a unit's case does not matter, its letters do.
        assertThat(Assertion.parse("bytes_out<=2kB")).isEqualTo(
                new Assertion("bytes_out<=2kB", Optional.empty(), Figure.BYTES_OUT, Op.LE, 2000, "kB"));
        assertThat(Assertion.parse("BYTES_OUT <= 2 KB").label()).isEqualTo("bytes_out<=2kB");
        assertThat(Assertion.parse("bytes_out<=2KiB").bound()).isEqualTo(2048);
        assertThat(Assertion.parse("gzip:bytes_in<300B").bound()).isEqualTo(300);
        assertThat(Assertion.parse("bytes_out<=2kB").show(1536)).isEqualTo("1.536 kB");
        assertThat(Assertion.parse("mix:p99<=5ms")).isEqualTo(
                new Assertion("mix:p99<=5ms", Optional.of("mix"), Figure.P99, Op.LE, 5, "ms"));
        assertThat(Assertion.parse("delay : rps >= 1000").scenario()).contains("delay");
    }

    @Test
    void badInputIsOneLineNamingWhatIsAllowed() {
        assertBad("p98<=5ms", "--assert 'p98<=5ms': no metric 'p98'");
        assertBad("latency<=5ms", "--assert 'latency<=5ms': no metric 'latency'");
        assertBad("p99<=5", "--assert 'p99<=5': p99 is a time: give its unit, us, ms or s (e.g. 'p99<=5ms')");
        assertBad("cpu<=5min", "cpu is a time: give its unit, us, ms or s, not 'min'");
        assertBad("p99=5ms", "--assert 'p99=5ms': = is for errors only; bound p99 with <=, <, >= or >");
        assertBad("errors=0.5", "errors takes a whole number, e.g. 'errors=0'");
        assertBad("errors<1ms", "errors takes a whole number");
        assertBad("rps>=1000rps", "rps takes a number without a unit (req/s), e.g. 'rps>=1000'");
        assertBad("bytes_out<=2", "bytes_out is a size: give its unit, B, kB, MB, KiB or MiB (e.g. 'bytes_out<=2kB')");
        assertBad("bytes_out<=2kbit", "not 'kbit'");
        assertBad("runq_wait<=5", "no metric 'runq_wait'");
        assertBad("p99~5ms", "--assert 'p99~5ms': not an assertion");
        assertBad("p99<=", "--assert 'p99<=': not an assertion");
        assertBad("", "--assert '': not an assertion");
        assertBad("p99<=-5ms", "'-5ms' is not a number with its unit");
        assertBad("mix:", "not an assertion");
    }

    private static void assertBad(String text, String expected) {
        assertThatThrownBy(() -> Assertion.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(expected)
                .hasMessageEndingWith(Assertion.USAGE)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n")
                        .contains("rps, p50, p90, p99, p99.9, errors, cpu, bytes_in, bytes_out"));
    }

    @Test
    void anIntervalPassesOnlyWhollyOnTheRightSideAndFailsOnlyWhollyOnTheWrongOne() {
        Assertion p99 = Assertion.parse("p99<=5ms");
        assertThat(p99.decide(4.2, 3.9, 4.5)).isEqualTo(Outcome.PASSED);
        assertThat(p99.decide(4.2, 3.9, 5.0)).as("the bound itself keeps <=").isEqualTo(Outcome.PASSED);
        assertThat(p99.decide(4.9, 4.1, 5.6)).as("across the bound").isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(p99.decide(6.2, 5.8, 6.6)).isEqualTo(Outcome.FAILED);
        assertThat(p99.decide(4.9, 5.1, 6.6)).as("the interval decides, not the median").isEqualTo(Outcome.FAILED);

        Assertion strict = Assertion.parse("p99<5ms");
        assertThat(strict.decide(4.5, 4.0, 5.0)).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(strict.decide(5.5, 5.0, 6.0)).isEqualTo(Outcome.FAILED);

        Assertion rps = Assertion.parse("rps>=1000");
        assertThat(rps.decide(1150, 1100, 1200)).isEqualTo(Outcome.PASSED);
        assertThat(rps.decide(1000, 950, 1050)).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(rps.decide(925, 900, 950)).isEqualTo(Outcome.FAILED);
        assertThat(rps.decide(925, 950, 900)).as("ends in either order").isEqualTo(Outcome.FAILED);

        Assertion above = Assertion.parse("rps>1000");
        assertThat(above.decide(1000, 1000, 1100)).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(above.decide(990, 980, 1000)).isEqualTo(Outcome.FAILED);
    }

    @Test
    void withoutAnIntervalTheFigureDecides() {
        Assertion p99 = Assertion.parse("p99<=5ms");
        assertThat(p99.decide(4.9, NONE, NONE)).isEqualTo(Outcome.PASSED);
        assertThat(p99.decide(5.1, NONE, NONE)).isEqualTo(Outcome.FAILED);
        assertThat(p99.decide(NONE, NONE, NONE)).as("not measured").isEqualTo(Outcome.INCONCLUSIVE);

        Assertion errors = Assertion.parse("errors=0");
        assertThat(errors.decide(0, NONE, NONE)).isEqualTo(Outcome.PASSED);
        assertThat(errors.decide(3, NONE, NONE)).isEqualTo(Outcome.FAILED);
        assertThat(errors.decide(0, 0, 0)).isEqualTo(Outcome.PASSED);
        assertThat(errors.decide(1, 0, 2)).isEqualTo(Outcome.INCONCLUSIVE);
        assertThat(errors.decide(3, 2, 4)).isEqualTo(Outcome.FAILED);
    }

    @Test
    void figuresAreShownInTheUnitTheBoundWasWrittenIn() {
        Assertion cpu = Assertion.parse("cpu<=50us");
        assertThat(cpu.show(0.04213)).isEqualTo("42.13 us");
        assertThat(cpu.showBound()).isEqualTo("50 us");
        assertThat(cpu.showInterval(0.039, 0.0455)).isEqualTo("[39, 45.5] us");
        assertThat(Assertion.parse("rps>=1000").show(23456.74)).isEqualTo("23456.7 req/s");
        assertThat(Assertion.parse("rps>1500.50").label()).as("the bound as given").isEqualTo("rps>1500.5");
        assertThat(Assertion.parse("rps>1500.50").showBound()).isEqualTo("1500.5 req/s");
        assertThat(Assertion.parse("p99<=0.0125s").showBound()).isEqualTo("0.0125 s");
        assertThat(Assertion.parse("p99<=4.08163ms").show(4.08163)).as("a figure: four significant digits")
                .isEqualTo("4.082 ms");
        assertThat(Assertion.parse("errors=0").show(3)).isEqualTo("3");
        assertThat(Assertion.parse("p99<=1s").show(160)).isEqualTo("0.16 s");
    }
}
