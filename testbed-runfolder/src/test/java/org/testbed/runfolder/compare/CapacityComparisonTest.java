package org.testbed.runfolder.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.stats.Verdict;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.Records;

class CapacityComparisonTest {

    private static List<CapacityRecord> passes(String variant, Conditions conditions, double... capacities) {
        List<CapacityRecord> list = new ArrayList<>();
        for (int i = 0; i < capacities.length; i++) {
            list.add(Records.capacity(variant, conditions, i + 1, capacities[i]));
        }
        return list;
    }

    @Test
    void capacitiesMatchByVariantScenarioConditionsAndSlaAndCarryAVerdict() {
        Conditions tls = Conditions.parse("tls");
        List<CapacityRecord> a = new ArrayList<>(passes("vertx", Conditions.PLAIN, 30_000, 31_000, 34_000, 32_000, 30_500));
        a.addAll(passes("spring-tomcat", Conditions.PLAIN, 9_000, 9_100, 8_900, 9_050, 8_950));
        a.addAll(passes("vertx", tls, 20_000));
        List<CapacityRecord> b = new ArrayList<>(passes("vertx", Conditions.PLAIN, 20_000, 21_000, 22_000, 20_500, 21_500));
        b.addAll(passes("spring-tomcat", Conditions.PLAIN, 9_020, 9_080, 8_950, 9_000, 9_100));
        b.addAll(passes("vertx", Conditions.parse("tls+gzip"), 15_000));

        CapacityComparison c = CapacityComparison.of(a, b);
        assertThat(c.entries()).extracting(e -> e.a().first().variant()).containsExactly("vertx", "spring-tomcat");
        CapacityComparison.Entry vertx = c.entries().get(0);
        assertThat(vertx.change().ratio()).isCloseTo(21_000.0 / 31_000, within(0.03));
        assertThat(vertx.change().verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(c.entries().get(1).change().verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(c.text()).contains("vertx").containsPattern("B/A 0\\.6\\d\\d \\[[0-9.]+, [0-9.]+\\]  lower")
                .contains("within noise");
        assertThat(CapacityComparison.of(a, List.of()).text()).isEmpty();
    }
}
