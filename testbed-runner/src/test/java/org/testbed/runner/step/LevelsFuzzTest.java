package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.testbed.driver.Level;
import org.testbed.runfolder.Conditions;
import org.testbed.scenario.LevelList;

/**
 * Coverage-guided fuzz tests (Jazzer) of the runner's own option value parsers: the load levels of
 * {@code run --concurrency} and {@code --rate} ({@link Levels}, through the scenario library's
 * {@link LevelList}), every duration ({@code --duration}, {@code --warmup}, {@code --settle},
 * {@code --budget}, {@code --timeout}, {@code --ramp}: {@link Levels#duration}) and
 * {@code --store-latency} crossed with the conditions ({@link ConditionSets#atStoreLatencies}, one value
 * a line). An input is the option's value as UTF-8 text. JUnit replays the inputs under
 * {@code src/test/resources/org/testbed/runner/step/LevelsFuzzTestInputs/<method>/};
 * {@code ./testbed fuzz} fuzzes each.
 *
 * <p>The contract held, for any value: the parsed value, or an {@link IllegalArgumentException} (the
 * scenario library's {@code InvalidParameterException} is one) with a message, which the command line
 * prints as a bad argument before any work. Levels are at most {@link LevelList#MAX_LEVELS}, a closed
 * level 1 to {@code Integer.MAX_VALUE} users, an open one a finite rate above 0. Inputs are at most
 * libFuzzer's length limit (4 KiB by default); one that takes longer than the class's timeout is a hang.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LevelsFuzzTest {

    private static String text(byte[] raw) {
        return new String(raw, StandardCharsets.UTF_8);
    }

    @FuzzTest
    void concurrencyLevels(byte[] raw) {
        List<Level> levels;
        try {
            levels = Levels.concurrency(text(raw));
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        assertThat(levels).isNotEmpty().hasSizeLessThanOrEqualTo(LevelList.MAX_LEVELS)
                .allSatisfy(l -> assertThat(l.concurrency()).isPositive());
    }

    @FuzzTest
    void rateLevels(byte[] raw) {
        List<Level> levels;
        try {
            levels = Levels.rate(text(raw));
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        assertThat(levels).isNotEmpty().hasSizeLessThanOrEqualTo(LevelList.MAX_LEVELS)
                .allSatisfy(l -> assertThat(l.rate()).isPositive().isFinite());
    }

    @FuzzTest
    void duration(byte[] raw) {
        try {
            Duration d = Levels.duration(text(raw));
            assertThat(d).isNotNull();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @FuzzTest
    void storeLatencies(byte[] raw) {
        List<String> values = Arrays.asList(text(raw).split("\n", -1));
        try {
            List<Conditions> sets = ConditionSets.atStoreLatencies(List.of(Conditions.PLAIN, Conditions.parse("tls")), values);
            assertThat(sets).hasSize(2 * values.size()).allSatisfy(c -> assertThat(c.storeLatency()).isPresent());
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
