package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.testbed.config.TestbedConfig;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.PlantedWork;
import org.testbed.service.CpuWork;

/** The server flags of a set of conditions, read back by the servers' own parser. */
class ServerFlagsTest {
    @Test
    void aPlantedWorkStartsTheVariantWithThatManyMicrosecondsOfWork() {
        assertThat(ServerFlags.conditions(Conditions.PLAIN)).isEmpty();
        assertThat(ServerFlags.conditions(Conditions.parse("tls+work20us"))).containsExactly("--tls", "--work-us", "20");

        TestbedConfig config = TestbedConfig.parse("t", ServerFlags.conditions(Conditions.parse("gzip+work500us"))
                .toArray(String[]::new), Map.of("TESTBED_WORK_US", "7"), new Properties());
        assertThat(config.workMicros()).as("the flag wins over the server's environment").isEqualTo(500);
        assertThat(config.gzip()).isTrue();
    }

    @Test
    void theConditionAllowsWhatTheServiceAllows() {
        assertThat(PlantedWork.MAX_MICROS).isEqualTo(CpuWork.MAX_MICROS);
        TestbedConfig.parse("t", ServerFlags.conditions(Conditions.parse("work" + PlantedWork.MAX_MICROS + "us"))
                .toArray(String[]::new), Map.of(), new Properties());
    }
}
