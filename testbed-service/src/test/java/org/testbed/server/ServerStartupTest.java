package org.testbed.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;

class ServerStartupTest {
    private static final Set<Mode> ALL = Set.of(Mode.SYNC, Mode.ASYNC, Mode.VIRTUAL);

    @AfterEach
    void clear() {
        System.clearProperty(ServerStartup.VIRTUAL_PARALLELISM);
    }

    private static TestbedConfig config(String mode) {
        return TestbedConfig.parse("t", new String[] {"--mode", mode}, Map.of(), new Properties());
    }

    @Test
    void virtualModeGetsAtLeastFourCarriersEvenOnOneCore() {
        ServerStartup.sizeVirtualThreadScheduler(Mode.VIRTUAL);
        int carriers = Integer.parseInt(System.getProperty(ServerStartup.VIRTUAL_PARALLELISM));
        assertThat(carriers).isEqualTo(Math.max(ServerTuning.MIN_VIRTUAL_CARRIERS, Runtime.getRuntime().availableProcessors()))
                .isGreaterThanOrEqualTo(4);
    }

    @Test
    void anExplicitParallelismIsKept() {
        System.setProperty(ServerStartup.VIRTUAL_PARALLELISM, "1");
        ServerStartup.sizeVirtualThreadScheduler(Mode.VIRTUAL);
        assertThat(System.getProperty(ServerStartup.VIRTUAL_PARALLELISM)).isEqualTo("1");
    }

    @Test
    void otherModesLeaveTheSchedulerAlone() {
        ServerStartup.prepare("t", config("async"), ALL);
        ServerStartup.sizeVirtualThreadScheduler(Mode.SYNC);
        assertThat(System.getProperty(ServerStartup.VIRTUAL_PARALLELISM)).isNull();
    }
}
