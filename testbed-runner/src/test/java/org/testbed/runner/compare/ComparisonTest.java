package org.testbed.runner.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runner.csv.ResultRow;

class ComparisonTest {

    static ResultRow row(String variant, String scenario, int concurrency, double rate, double rps, double p99,
                         double user, double sys, String jdk) {
        return new ResultRow("r", "t", "h", "x86_64", "cpu", 2, jdk, variant, "sync", scenario, "testbed-nio",
                concurrency, rate, 10, (long) (rps * 10), 0, rps, 1, 2, p99, 4, 5, user, sys, 100, 1, 1);
    }

    @Test
    void ratiosAreBOverA() {
        List<ResultRow> a = List.of(row("vertx", "mix", 64, 0, 20000, 4.0, 0.03, 0.01, "17"));
        List<ResultRow> b = List.of(row("vertx", "mix", 64, 0, 30000, 3.0, 0.02, 0.02, "25"));
        Comparison c = Comparison.of(a, b);
        assertThat(c.matched()).hasSize(1);
        Comparison.Match m = c.matched().get(0);
        assertThat(m.rpsRatio()).isEqualTo(1.5);
        assertThat(m.p99Ratio()).isEqualTo(0.75);
        assertThat(m.cpuRatio()).isCloseTo(0.04 / 0.04, within(1e-12));
        assertThat(m.flags()).containsExactly("JDK 17 / 25");
    }

    @Test
    void stepsMatchByVariantScenarioAndLevelOnly() {
        List<ResultRow> a = List.of(
                row("vertx", "mix", 8, 0, 1000, 1, 0.1, 0.1, "17"),
                row("vertx", "mix", 64, 0, 2000, 2, 0.1, 0.1, "17"),
                row("vertx", "delay", 0, 5000, 4900, 160, 0.1, 0.1, "17"),
                row("spring-tomcat", "mix", 8, 0, 500, 3, 0.2, 0.1, "17"));
        List<ResultRow> b = List.of(
                row("vertx", "delay", 0, 5000, 4950, 155, 0.1, 0.1, "17"),
                row("vertx", "mix", 64, 0, 1000, 4, 0.2, 0.2, "17"),
                row("vertx", "mix", 256, 0, 900, 9, 0.2, 0.2, "17"));
        Comparison c = Comparison.of(a, b);
        assertThat(c.matched()).extracting(m -> m.key().level()).containsExactly("c=64", "5000/s");
        assertThat(c.matched().get(0).rpsRatio()).isEqualTo(0.5);
        assertThat(c.matched().get(0).p99Ratio()).isEqualTo(2.0);
        assertThat(c.matched().get(0).cpuRatio()).isCloseTo(2.0, within(1e-12));
        assertThat(c.onlyA()).extracting(k -> k.variant() + " " + k.level()).containsExactly("vertx c=8", "spring-tomcat c=8");
        assertThat(c.onlyB()).extracting(k -> k.variant() + " " + k.level()).containsExactly("vertx c=256");
    }

    @Test
    void aZeroOrMissingBaselineGivesNoRatio() {
        assertThat(Comparison.ratio(5, 0)).isNaN();
        assertThat(Comparison.ratio(Double.NaN, 2)).isNaN();
        assertThat(Comparison.ratio(3, Double.NaN)).isNaN();
        assertThat(Comparison.ratio(3, 2)).isEqualTo(1.5);
    }

    @Test
    void aRunComparedWithItselfIsAllOnes() {
        List<ResultRow> a = List.of(row("vertx", "mix", 8, 0, 1000, 1, 0.1, 0.05, "17"),
                row("jetty-handler", "mix", 8, 0, 800, 2, 0.2, 0.05, "17"));
        Comparison c = Comparison.of(a, a);
        assertThat(c.matched()).allSatisfy(m -> {
            assertThat(m.rpsRatio()).isEqualTo(1.0);
            assertThat(m.p99Ratio()).isEqualTo(1.0);
            assertThat(m.cpuRatio()).isEqualTo(1.0);
        });
        assertThat(CompareWriter.table(c)).contains("vertx").contains("1.000");
    }
}
