package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProfileBudgetTest {
    @Test
    void theDefaultBudgetGrowsWithTheVariantsSoThatAddedForksStillFit() {
        assertThat(Profile.DEFAULT.budget(10)).contains(Duration.ofMinutes(20));
        assertThat(Profile.DEFAULT.budget(12)).contains(Duration.ofMinutes(24));
        assertThat(Profile.DEFAULT.budget(1)).contains(Duration.ofMinutes(2));
    }

    @Test
    void theStudiesMeasureTheirPlannedForksOnly() {
        assertThat(Profile.STAIRCASE.budget(12)).isEmpty();
        assertThat(Profile.SEED.budget(3)).isEmpty();
    }
}
