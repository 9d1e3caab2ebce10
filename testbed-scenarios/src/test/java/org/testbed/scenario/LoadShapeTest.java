package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LoadShapeTest {

    static Stream<LoadShape> defaultsAndExtremes() {
        ThinkTime think = new ThinkTime(Duration.ofMillis(500), Duration.ofSeconds(2));
        return Stream.of(
                new LoadShape.Realistic(1000, Duration.ofSeconds(60), Duration.ofSeconds(120), think),
                new LoadShape.Realistic(3, Duration.ZERO, Duration.ofSeconds(1), ThinkTime.NONE),
                new LoadShape.Throughput(96, Duration.ofSeconds(30)),
                LoadShape.Staircase.parse("50:1100:50", Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ofSeconds(30)),
                LoadShape.Staircase.parse("1:4:1", Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO),
                LoadShape.Staircase.parse("1:1000:1", Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(1)),
                new LoadShape.ArrivalRate(5000, Duration.ofSeconds(60)),
                LoadShape.SlaCapacity.parse("1000:20000:1000", Duration.ofSeconds(30), 5, Duration.ofSeconds(10)),
                LoadShape.SlaCapacity.parse("1:2:1", Duration.ofSeconds(30), 5, Duration.ZERO));
    }

    @ParameterizedTest
    @MethodSource("defaultsAndExtremes")
    void smokeVersionsAreShortSmallAndSlow(LoadShape shape) {
        LoadShape smoke = shape.smoke();
        assertThat(smoke.getClass()).isEqualTo(shape.getClass());
        assertThat(smoke.total()).isLessThanOrEqualTo(LoadShape.SMOKE_MAX_TIME);
        if (smoke instanceof LoadShape.Realistic r) {
            assertThat(r.total().plus(r.think().max())).isLessThanOrEqualTo(LoadShape.SMOKE_MAX_TIME);
        }
        for (LoadShape.Window window : smoke.windows()) {
            double max = smoke instanceof LoadShape.ArrivalRate || smoke instanceof LoadShape.SlaCapacity
                    ? LoadShape.SMOKE_MAX_RATE : LoadShape.SMOKE_MAX_USERS;
            assertThat(window.load()).isPositive().isLessThanOrEqualTo(max);
            assertThat(window.start().plus(window.length())).isLessThanOrEqualTo(smoke.total());
        }
        assertThat(smoke.smoke()).isEqualTo(smoke);
        assertThat(smoke.describe()).isNotBlank();
    }

    @Test
    void staircaseOfTheNettyStudy() {
        LoadShape.Staircase stairs = LoadShape.Staircase.parse("50:1100:50", Duration.ofSeconds(60), Duration.ZERO, Duration.ZERO);
        assertThat(stairs.levels()).isEqualTo(22);
        assertThat(stairs.users()).startsWith(50, 100).endsWith(1100);
        assertThat(stairs.total()).isEqualTo(Duration.ofMinutes(22));
        List<LoadShape.Window> windows = stairs.windows();
        assertThat(windows.get(3).start()).isEqualTo(Duration.ofMinutes(3));
        assertThat(windows.get(3).label()).isEqualTo("level-04");
        assertThat(windows.get(3).load()).isEqualTo(200);
        assertThat(windows.get(3).contains(Duration.ofSeconds(200))).isTrue();
        assertThat(windows.get(3).contains(Duration.ofSeconds(240))).isFalse();

        LoadShape.Staircase withRamps = LoadShape.Staircase.parse("10:30:10", Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(7));
        assertThat(withRamps.total()).isEqualTo(Duration.ofSeconds(47));
        assertThat(withRamps.windows()).extracting(LoadShape.Window::label)
                .containsExactly(LoadShape.WARMUP, "level-01", "level-02", "level-03");
        assertThat(withRamps.windows()).extracting(LoadShape.Window::start)
                .containsExactly(Duration.ZERO, Duration.ofSeconds(7), Duration.ofSeconds(22), Duration.ofSeconds(37));
    }

    @Test
    void staircaseSmokeKeepsSeveralLevels() {
        LoadShape.Staircase smoke = LoadShape.Staircase.parse("50:1100:50", Duration.ofSeconds(60), Duration.ZERO, Duration.ofSeconds(10)).smoke();
        assertThat(smoke.users()).containsExactly(5, 10, 15, 20);
    }

    @Test
    void slaRateSteps() {
        LoadShape.SlaCapacity sla = LoadShape.SlaCapacity.parse("1000:5000:1000", Duration.ofSeconds(30), 5, Duration.ofSeconds(10));
        assertThat(sla.rates()).containsExactly(1000.0, 2000.0, 3000.0, 4000.0, 5000.0);
        assertThat(sla.total()).isEqualTo(Duration.ofSeconds(160));
        assertThat(sla.windows().get(1).start()).isEqualTo(Duration.ofSeconds(10));
        assertThat(sla.smoke().rates()).containsExactly(10.0, 20.0, 30.0, 40.0);
    }

    @Test
    void badShapesSayWhichParameterAndWhatIsAllowed() {
        Duration s1 = Duration.ofSeconds(1);
        assertThatThrownBy(() -> LoadShape.Staircase.parse("50:1100", s1, Duration.ZERO, Duration.ZERO))
                .hasMessage("levels '50:1100' must be FROM:TO:STEP in whole users, e.g. 50:1100:50");
        assertThatThrownBy(() -> LoadShape.Staircase.parse("100:50:10", s1, Duration.ZERO, Duration.ZERO))
                .hasMessage("to 50 must be at least from (100)");
        assertThatThrownBy(() -> new LoadShape.Staircase(0, 10, 1, s1, Duration.ZERO, Duration.ZERO))
                .hasMessage("from 0 must be a whole number, at least 1");
        assertThatThrownBy(() -> new LoadShape.Staircase(1, 100_000, 1, s1, Duration.ZERO, Duration.ZERO))
                .hasMessage("step 1 must be at least 11, for at most 10000 levels from from (1) to to (100000)");
        assertThat(new LoadShape.Staircase(1, 100_000, 11, s1, Duration.ZERO, Duration.ZERO).levels()).isLessThanOrEqualTo(LoadShape.MAX_LEVELS);
        assertThatThrownBy(() -> new LoadShape.Staircase(1, 10, 1, Duration.ZERO, Duration.ZERO, Duration.ZERO))
                .hasMessage("level 0 s must be longer than 0 s");
        assertThatThrownBy(() -> new LoadShape.Staircase(1, 10, 1, s1, Duration.ofMillis(-500), Duration.ZERO))
                .hasMessage("ramp -0.5 s must be 0 s or longer");
        assertThatThrownBy(() -> new LoadShape.Throughput(0, s1)).hasMessage("concurrency 0 must be a whole number, at least 1");
        assertThatThrownBy(() -> new LoadShape.Realistic(10, s1, Duration.ZERO, ThinkTime.NONE))
                .hasMessage("hold 0 s must be longer than 0 s");
        assertThatThrownBy(() -> new LoadShape.ArrivalRate(0, s1)).hasMessage("rps 0 must be a number above 0 (req/s)");
        assertThatThrownBy(() -> new LoadShape.ArrivalRate(Double.POSITIVE_INFINITY, s1)).hasMessageStartingWith("rps Infinity must be");
        assertThatThrownBy(() -> new LoadShape.SlaCapacity(2000, 1000, 100, s1, 5, Duration.ZERO))
                .hasMessage("to 1000 must be at least from (2000)");
        assertThatThrownBy(() -> new LoadShape.SlaCapacity(1, 20000, 0.5, s1, 5, Duration.ZERO))
                .hasMessage("step 0.5 must be at least 2.00011, for at most 10000 levels from from (1) to to (20000)");
        assertThat(new LoadShape.SlaCapacity(1, 20000, 2.00011, s1, 5, Duration.ZERO).rates()).hasSizeLessThanOrEqualTo(LoadShape.MAX_LEVELS);
        assertThatThrownBy(() -> new LoadShape.SlaCapacity(1000, 2000, 100, s1, Double.NaN, Duration.ZERO))
                .hasMessage("p99Ms NaN must be a number above 0 (ms)");
        assertThatThrownBy(() -> new ThinkTime(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessage("max 1 s must be at least min (2 s)");
        assertThatThrownBy(() -> new ThinkTime(Duration.ofMillis(-1), Duration.ofSeconds(1)))
                .hasMessage("min -0.001 s must be 0 s or longer");
    }

    @Test
    void aRefusedParameterCanBeNamedTheWayTheCallerNamesIt() {
        InvalidParameterException e = catchThrowableOfType(
                () -> new LoadShape.Staircase(50, 20, 50, Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO),
                InvalidParameterException.class);
        assertThat(e.parameter()).isEqualTo("to");
        assertThat(e.value()).isEqualTo("20");
        assertThat(e.allowed((name, value) -> "-D" + name + "=" + value)).isEqualTo("at least -Dfrom=50");
    }

    @Test
    void thinkTimeStaysInItsBounds() {
        ThinkTime think = new ThinkTime(Duration.ofMillis(500), Duration.ofSeconds(2));
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (int i = 0; i < 10_000; i++) {
            assertThat(think.next(random)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(2));
        }
        assertThat(think.mean()).isEqualTo(Duration.ofMillis(1250));
    }
}
