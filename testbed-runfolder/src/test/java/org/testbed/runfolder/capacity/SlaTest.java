package org.testbed.runfolder.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SlaTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "p99<=5ms     | 99   | false | 5     | p99<=5ms",
            "P99 <= 5 ms  | 99   | false | 5     | p99<=5ms",
            "p90<20ms     | 90   | true  | 20    | p90<20ms",
            "p99.9<=1s    | 99.9 | false | 1000  | p99.9<=1000ms",
            "p999<=250us  | 99.9 | false | 0.25  | p99.9<=0.25ms",
            "p50<=0.5ms   | 50   | false | 0.5   | p50<=0.5ms"})
    void readsTheFormsItDocuments(String text, double percentile, boolean strict, double boundMs, String label) {
        Sla sla = Sla.parse(text);
        assertThat(sla.percentile()).isEqualTo(percentile);
        assertThat(sla.strict()).isEqualTo(strict);
        assertThat(sla.boundMs()).isEqualTo(boundMs);
        assertThat(sla.label()).isEqualTo(label);
        assertThat(Sla.parse(sla.label())).isEqualTo(sla);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "p99", "p99<=5", "p98<=5ms", "p99>=5ms", "99<=5ms", "p99<=5min", "p99<=-1ms", "p99<=0ms",
            "p99<=5ms;rm"})
    void refusesAnythingElseWithTheForm(String text) {
        assertThatThrownBy(() -> Sla.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("p99<=5ms").hasMessageContaining(text.isEmpty() ? "''" : text);
    }

    @ParameterizedTest
    @CsvSource({"5.0, 0, true", "5.001, 0, false", "1.0, 1, false"})
    void aBoundIsInclusiveWithLessOrEqualAndAnErrorAlwaysMisses(double latency, long errors, boolean met) {
        assertThat(Sla.parse("p99<=5ms").met(latency, errors)).isEqualTo(met);
    }

    @ParameterizedTest
    @CsvSource({"4.999, true", "5.0, false"})
    void aStrictBoundExcludesItself(double latency, boolean met) {
        assertThat(Sla.parse("p99<5ms").met(latency, 0)).isEqualTo(met);
    }

    /** Found by fuzzing: a huge bound was labelled as Long.MAX_VALUE ms, a tiny one with an exponent the form refuses. */
    @org.junit.jupiter.api.Test
    void everyLabelReadsBackAsItsSla() {
        for (String text : new String[] {"p999<=11111111111111111111111111111111111111111111s", "p99<=0.1us", "p90<20ms", "p50<=1.5s"}) {
            Sla sla = Sla.parse(text);
            org.assertj.core.api.Assertions.assertThat(Sla.parse(sla.label())).as(sla.label()).isEqualTo(sla);
        }
        org.assertj.core.api.Assertions.assertThat(Sla.parse("p99<=0.1us").label()).isEqualTo("p99<=0.0001ms");
        org.assertj.core.api.Assertions.assertThat(Sla.parse("p99<=5ms").label()).isEqualTo("p99<=5ms");
    }

    /** Found by fuzzing: a negative CPU ("-02") was taken, and a huge range would be counted out CPU by CPU. */
    @org.junit.jupiter.api.Test
    void cpuListsNameCpusZeroToTheLimit() {
        for (String list : new String[] {"-02,3", "0-2147483647", "70000"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> org.testbed.runfolder.CpuList.parse(list))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CPU");
        }
        org.assertj.core.api.Assertions.assertThat(org.testbed.runfolder.CpuList.parse("0,2-3")).containsExactly(0, 2, 3);
    }
}
