package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LevelListTest {
    @Test
    void aRangeIncludesBothEnds() {
        assertThat(LevelList.levels("--concurrency", "50:200:50")).containsExactly(50.0, 100.0, 150.0, 200.0);
        assertThat(LevelList.levels("--rate", "0.1:0.3:0.1")).hasSize(3);
    }

    @Test
    void aListKeepsItsOrder() {
        assertThat(LevelList.levels("--concurrency", " 256, 8 ,64")).containsExactly(256.0, 8.0, 64.0);
    }

    @Test
    void fromToStepIsThreeNumbersOrNothing() {
        assertThat(LevelList.fromToStep("50:1100:50")).hasValueSatisfying(v -> assertThat(v).containsExactly(50, 1100, 50));
        assertThat(LevelList.fromToStep("50:1100")).isEmpty();
        assertThat(LevelList.fromToStep("a:b:c")).isEmpty();
        assertThat(LevelList.fromToStep("1:NaN:1")).isEmpty();
    }

    @Test
    void badTextIsRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> LevelList.levels("--rate", "5:1:1")).isInstanceOf(InvalidParameterException.class)
                .hasMessage("--rate '5:1:1' must be FROM:TO:STEP with FROM <= TO and STEP > 0, or a comma-separated list of numbers");
        assertThatThrownBy(() -> LevelList.levels("--rate", "1:5:0")).hasMessageStartingWith("--rate '1:5:0' must be FROM:TO:STEP");
        assertThatThrownBy(() -> LevelList.levels("--concurrency", "8,x")).hasMessageStartingWith("--concurrency '8,x' must be");
        assertThatThrownBy(() -> LevelList.levels("--concurrency", " , ")).hasMessageStartingWith("--concurrency ' , ' must be at least one level");
    }

    /**
     * A range whose STEP cannot move FROM ({@code 1e20 + 1 == 1e20}) counted forever, and a billion-level
     * one filled the heap: a text names at most {@link LevelList#MAX_LEVELS} levels.
     */
    @Test
    void aRangeOfMoreLevelsThanTheLimitIsRefusedNotCountedOut() {
        assertThatThrownBy(() -> LevelList.levels("--concurrency", "1e20:1e21:1")).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("at most " + LevelList.MAX_LEVELS + " levels");
        assertThatThrownBy(() -> LevelList.levels("--rate", "1:1e9:1")).hasMessageContaining("at most 10000 levels");
        assertThat(LevelList.levels("--rate", "1:10000:1")).hasSize(LevelList.MAX_LEVELS);
    }
}
