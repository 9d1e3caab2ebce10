package org.testbed.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TestbedConfigTest {
    private static Properties properties(String... pairs) {
        Properties properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    @Test
    void defaultsAreThoseOfTheDesign() {
        TestbedConfig config = TestbedConfig.parse("t", new String[0], Map.of(), new Properties());
        assertThat(config.host()).isEqualTo("0.0.0.0");
        assertThat(config.port()).isEqualTo(8080);
        assertThat(config.mode()).isEqualTo(Mode.SYNC);
        assertThat(config.threads()).isEqualTo(200);
        assertThat(config.tls()).isFalse();
        assertThat(config.maxBody()).isEqualTo(65536);
        assertThat(config.memcachedServers()).isEqualTo("127.0.0.1:11211");
        assertThat(config.memcachedTimeoutMs()).isEqualTo(1000);
        assertThat(config.idleTimeoutMs()).isEqualTo(30000);
        assertThat(config.gzip()).isFalse();
        assertThat(config.metrics()).isFalse();
        assertThat(config.workMicros()).as("no planted work by default").isZero();
    }

    @Test
    void flagWinsOverPropertyWhichWinsOverEnvironment() {
        Map<String, String> env = Map.of("TESTBED_PORT", "1", "TESTBED_THREADS", "2", "TESTBED_MAX_BODY", "3",
                "MEMCACHED_TIMEOUT_MS", "4");
        Properties props = properties("testbed.port", "10", "testbed.threads", "20", "memcached.timeout.ms", "40");
        TestbedConfig config = TestbedConfig.parse("t", new String[] {"--port", "100"}, env, props);
        assertThat(config.port()).isEqualTo(100);
        assertThat(config.threads()).isEqualTo(20);
        assertThat(config.maxBody()).isEqualTo(3);
        assertThat(config.memcachedTimeoutMs()).isEqualTo(40);
    }

    @Test
    void everySettingHasItsDesignName() {
        Map<String, String> env = Map.of("TESTBED_HOST", "127.0.0.1", "TESTBED_MODE", "virtual", "TESTBED_TLS", "true",
                "MEMCACHED_SERVERS", "a:1,b:2", "TESTBED_IDLE_TIMEOUT_MS", "1500", "TESTBED_GZIP", "true");
        TestbedConfig config = TestbedConfig.parse("t", new String[0], env, properties("testbed.metrics", "true"));
        assertThat(config.gzip()).isTrue();
        assertThat(config.metrics()).isTrue();
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.mode()).isEqualTo(Mode.VIRTUAL);
        assertThat(config.tls()).isTrue();
        assertThat(config.memcachedServers()).isEqualTo("a:1,b:2");
        assertThat(config.idleTimeoutMs()).isEqualTo(1500);
        assertThat(config.acceptQueue()).isEqualTo(1024);
        assertThat(TestbedConfig.parse("t", new String[0], Map.of("TESTBED_ACCEPT_QUEUE", "0"), new Properties()).acceptQueue())
                .as("0: the server's own default").isZero();
        assertThatThrownBy(() -> TestbedConfig.parse("t", new String[] {"--accept-queue", "-1"}, Map.of(), new Properties()))
                .hasMessageContaining("--accept-queue");
        assertThat(TestbedConfig.environmentName("--memcached-timeout-ms")).isEqualTo("MEMCACHED_TIMEOUT_MS");
        assertThat(TestbedConfig.propertyName("TESTBED_MAX_BODY")).isEqualTo("testbed.max.body");
    }

    @Test
    void settingsListsEveryOptionWithItsNamesAndDefault() {
        assertThat(TestbedConfig.settings()).extracting(TestbedConfig.Setting::environmentName).containsExactly(
                "TESTBED_HOST", "TESTBED_PORT", "TESTBED_MODE", "TESTBED_THREADS", "TESTBED_TLS", "TESTBED_MAX_BODY",
                "MEMCACHED_SERVERS", "MEMCACHED_TIMEOUT_MS", "TESTBED_IDLE_TIMEOUT_MS", "TESTBED_ACCEPT_QUEUE", "TESTBED_GZIP",
                "TESTBED_METRICS", "TESTBED_WORK_US");
        assertThat(TestbedConfig.settings()).contains(
                new TestbedConfig.Setting("TESTBED_MAX_BODY", "--max-body", "testbed.max.body", "65536"),
                new TestbedConfig.Setting("MEMCACHED_SERVERS", "--memcached-servers", "memcached.servers", "127.0.0.1:11211"));
        // Each spelling is one parse() reads: the default given in the environment changes nothing, and
        // a bad value given as the property is refused (a blank string for the two free-text settings).
        String defaults = TestbedConfig.parse("t", new String[0], Map.of(), new Properties()).toString();
        for (TestbedConfig.Setting setting : TestbedConfig.settings()) {
            Map<String, String> env = Map.of(setting.environmentName(), setting.defaultValue());
            assertThat(TestbedConfig.parse("t", new String[0], env, new Properties()).toString()).isEqualTo(defaults);
            String bad = setting.flag().equals("--host") || setting.flag().equals("--memcached-servers") ? " " : "x";
            assertThatThrownBy(() -> TestbedConfig.parse("t", new String[0], Map.of(), properties(setting.propertyName(), bad)))
                    .as("%s read from -D%s", setting.flag(), setting.propertyName()).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aVariantCanHaveItsOwnDefaultModeWhichSettingsStillOverride() {
        assertThat(TestbedConfig.parse("t", new String[0], Map.of(), new Properties(), Mode.ASYNC).mode())
                .isEqualTo(Mode.ASYNC);
        assertThat(TestbedConfig.parse("t", new String[0], Map.of("TESTBED_MODE", "sync"), new Properties(), Mode.ASYNC)
                .mode()).isEqualTo(Mode.SYNC);
        assertThat(TestbedConfig.parse("t", new String[] {"--mode", "virtual"}, Map.of(), new Properties(), Mode.ASYNC)
                .mode()).isEqualTo(Mode.VIRTUAL);
    }

    @Test
    void badValuesAreReadableErrors() {
        assertThatThrownBy(() -> TestbedConfig.parse("t", new String[] {"--port", "x"}, Map.of(), new Properties()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--port");
        assertThatThrownBy(() -> TestbedConfig.parse("t", new String[] {"--port", "70000"}, Map.of(), new Properties()))
                .hasMessageContaining("0..65535");
        assertThatThrownBy(() -> TestbedConfig.parse("t", new String[] {"--mode", "turbo"}, Map.of(), new Properties()))
                .hasMessageContaining("turbo");
        assertThatThrownBy(() -> TestbedConfig.parse("t", new String[0], Map.of("TESTBED_THREADS", "0"), new Properties()))
                .hasMessageContaining("--threads");
    }

    @Test
    void theWorkPerRequestIsAWholeNumberOfMicrosecondsUpTo100ms() {
        assertThat(TestbedConfig.parse("t", new String[0], Map.of("TESTBED_WORK_US", "20"), new Properties()).workMicros())
                .isEqualTo(20);
        assertThat(TestbedConfig.parse("t", new String[0], Map.of("TESTBED_WORK_US", "20"), properties("testbed.work.us", "30"))
                .workMicros()).isEqualTo(30);
        assertThat(TestbedConfig.parse("t", new String[] {"--work-us", "100000"}, Map.of(), new Properties()).workMicros())
                .isEqualTo(100_000);
        for (String bad : new String[] {"-5", "100001"}) {
            assertThatThrownBy(() -> TestbedConfig.parse("t", new String[] {"--work-us", bad}, Map.of(), new Properties()))
                    .as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--work-us must be a whole number of microseconds from 0 to 100000, not " + bad);
        }
        for (String bad : new String[] {"abc", "1.5", "20us"}) {
            assertThatThrownBy(() -> TestbedConfig.parse("t", new String[0], Map.of("TESTBED_WORK_US", bad), new Properties()))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--work-us")
                    .hasMessageContaining("'" + bad + "'");
        }
    }
}
