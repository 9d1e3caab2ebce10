package org.testbed.runner.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testbed.config.TestbedConfig;
import org.testbed.config.TestbedConfig.Setting;

/**
 * A deployed variant runs with the configuration a local {@code ./testbed serve} has: every server
 * setting of {@link TestbedConfig} set in this shell reaches testbed.env under its own name, except
 * the mode (part of the variant) and the three the deploy's options set.
 */
class RemoteSettingsTest {

    @Test
    void everyServerSettingButModeHostPortAndMemcachedIsPassedOnWithTheJvmOptions() {
        List<String> expected = new java.util.ArrayList<>(TestbedConfig.settings().stream().map(Setting::environmentName)
                .filter(n -> !List.of("TESTBED_MODE", "TESTBED_HOST", "TESTBED_PORT", "MEMCACHED_SERVERS").contains(n)).toList());
        expected.addAll(List.of("TESTBED_JAVA_OPTS", "JAVA_TOOL_OPTIONS"));
        assertThat(RemoteSettings.passedOn()).containsExactlyElementsOf(expected);
    }

    @Test
    void theShellsSettingsAndTheOptionsGoToTheEnvFile() {
        Map<String, String> shell = new HashMap<>();
        for (String name : RemoteSettings.passedOn()) {
            shell.put(name, "value of " + name);
        }
        shell.put("TESTBED_MODE", "virtual");
        shell.put("UNRELATED", "x");
        String env = RemoteSettings.of(shell, "10.0.0.7:11211", 8081, "127.0.0.1", "/opt/jdk/bin/java", List.of("--threads", "400"))
                .envFile("here");
        for (String name : RemoteSettings.passedOn()) {
            assertThat(env).contains(name + "='value of " + name + "'\n");
        }
        assertThat(env).contains("MEMCACHED_SERVERS=10.0.0.7:11211\n", "TESTBED_PORT=8081\n", "TESTBED_HOST=127.0.0.1\n",
                "TESTBED_JAVA=/opt/jdk/bin/java\n", "TESTBED_SERVER_ARGS=(--threads 400)\n")
                .doesNotContain("TESTBED_MODE").doesNotContain("UNRELATED");
    }

    @Test
    void withoutOptionsTheDefaultsAreTestbedConfigsAndNothingUnsetIsWritten() {
        Map<String, String> defaults = RemoteSettings.of(Map.of(), null, 8080, null, null, List.of()).values();
        assertThat(defaults).containsOnlyKeys("MEMCACHED_SERVERS", "TESTBED_PORT")
                .containsEntry("MEMCACHED_SERVERS", RemoteSettings.defaultOf("MEMCACHED_SERVERS"));
        assertThat(RemoteSettings.defaultOf("TESTBED_PORT")).isEqualTo("8080");
        assertThat(RemoteSettings.defaultOf("MEMCACHED_SERVERS")).isEqualTo("127.0.0.1:11211");
    }
}
