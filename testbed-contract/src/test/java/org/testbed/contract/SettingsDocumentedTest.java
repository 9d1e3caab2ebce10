package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testbed.config.TestbedConfig;
import org.testbed.config.TestbedConfig.Setting;

/**
 * The server settings have one source, {@link TestbedConfig#settings()}; every other place that
 * lists them must name exactly those: the Configuration tables of the README and docs/DESIGN.md
 * (name, flag and default), and the files that start variants elsewhere (the compose file, the
 * launcher the images and the VM deploy use, the images' README), which must pass every setting on
 * and use no {@code TESTBED_*} or {@code MEMCACHED_*} name that is neither a setting nor one of
 * their own, listed here. The VM deploy ({@code ./testbed deploy}, in testbed-runner) keeps no list
 * of its own: it passes on what {@link TestbedConfig#settings()} lists (its RemoteSettingsTest
 * holds that), and here it must read that list and name nothing else but its own names.
 *
 * <p>One setting is not passed on by those files, on purpose: the mode. A variant's mode is part of
 * the variant (its line of variants.conf), and the launcher gives it as {@code --mode}, which wins
 * over {@code TESTBED_MODE}; the test checks that it does.
 */
class SettingsDocumentedTest {
    private static final Pattern NAME = Pattern.compile("\\b(?:TESTBED|MEMCACHED)_[A-Z0-9_]*[A-Z0-9]\\b");
    private static final Pattern TABLE_ROW = Pattern.compile(
            "^\\| `((?:TESTBED|MEMCACHED)_[A-Z0-9_]+)` \\| `(--[a-z-]+)` \\| `([^`]*)` \\|", Pattern.MULTILINE);
    /** {@code ${NAME:-default}} in a shell script or compose file. */
    private static final Pattern SHELL_DEFAULT = Pattern.compile("\\$\\{((?:TESTBED|MEMCACHED)_[A-Z0-9_]+):-([^}]*)}");
    /** The fixed part of the compose file's x-variant environment: {@code - NAME} or {@code - NAME=value}. */
    private static final Pattern COMPOSE_ENVIRONMENT = Pattern.compile("^\\s+- ((?:TESTBED|MEMCACHED)_[A-Z0-9_]+)(?:=.*)?$",
            Pattern.MULTILINE);

    /** Where the VM deploy decides what goes into the remote testbed.env. */
    private static final String DEPLOY_SETTINGS = "testbed-runner/src/main/java/org/testbed/runner/deploy/RemoteSettings.java";

    /** The setting the variant fixes: launchers pass the mode of its variants.conf line as a flag. */
    private static final String MODE = "TESTBED_MODE";

    /** Names that are not server settings, per file, and what they are. */
    private static final Map<String, Set<String>> OWN_NAMES = Map.of(
            // JVM options; image names and tags; the host address ports are published on; the
            // memcached service's image tag, memory and threads.
            "docker/compose.yaml", Set.of("TESTBED_JAVA_OPTS", "TESTBED_IMAGE_PREFIX", "TESTBED_TAG",
                    "TESTBED_PUBLISH_ADDR", "MEMCACHED_TAG", "MEMCACHED_MEMORY_MB", "MEMCACHED_THREADS"),
            // JVM options; the java to use on the VM; server flags given after --.
            DEPLOY_SETTINGS, Set.of("TESTBED_JAVA_OPTS", "TESTBED_JAVA", "TESTBED_SERVER_ARGS"),
            // The same three, and where a detached start records the server's pid.
            "docker/testbed-launch", Set.of("TESTBED_JAVA_OPTS", "TESTBED_JAVA", "TESTBED_SERVER_ARGS", "TESTBED_PIDFILE"),
            // compose.yaml's names, and the cache the image tests keep their base images in (Arm64Sysroot's).
            "docker/README.md", Set.of("TESTBED_JAVA_OPTS", "TESTBED_IMAGE_PREFIX", "TESTBED_TAG",
                    "TESTBED_PUBLISH_ADDR", "MEMCACHED_TAG", "MEMCACHED_MEMORY_MB", "MEMCACHED_THREADS", "TESTBED_CACHE_DIR"),
            "docker/Dockerfile", Set.of("TESTBED_JAVA_OPTS"));

    private final Path root = ContractVariants.repositoryRoot();
    private final List<Setting> settings = TestbedConfig.settings();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"README.md", "docs/DESIGN.md"})
    void theConfigurationTableListsEverySettingWithItsFlagAndDefault(String document) throws IOException {
        List<String> rows = new ArrayList<>();
        Matcher row = TABLE_ROW.matcher(read(document));
        while (row.find()) {
            rows.add(row.group(1) + " " + row.group(2) + " " + row.group(3));
        }
        assertThat(rows).as("rows '| `NAME` | `--flag` | `default` |' of %s", document)
                .containsExactlyInAnyOrderElementsOf(settings.stream()
                        .map(s -> s.environmentName() + " " + s.flag() + " " + s.defaultValue()).toList());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"docker/compose.yaml", "docker/testbed-launch", "docker/README.md"})
    void everySettingIsPassedOnAndNoOtherNameIsUsed(String file) throws IOException {
        String text = read(file);
        Set<String> named = names(text);
        assertThat(named).as("settings %s names (all but %s, which the launcher sets from variants.conf)", file, MODE)
                .containsAll(settingNames(false));
        assertThat(unknown(named, file)).as("TESTBED_*/MEMCACHED_* names in %s that are neither a setting of"
                + " TestbedConfig nor one of the file's own", file).isEmpty();
    }

    @Test
    void theVmDeployPassesOnTestbedConfigsSettingsAndNamesNoOther() throws IOException {
        String deploy = read(DEPLOY_SETTINGS);
        assertThat(deploy).as("%s takes the settings from TestbedConfig", DEPLOY_SETTINGS).contains("TestbedConfig.settings()");
        assertThat(unknown(names(deploy), DEPLOY_SETTINGS)).as("TESTBED_*/MEMCACHED_* names in %s that are neither a"
                + " setting of TestbedConfig nor one of its own", DEPLOY_SETTINGS).isEmpty();
    }

    @Test
    void theImageSetsNoUnknownName() throws IOException {
        assertThat(unknown(names(read("docker/Dockerfile")), "docker/Dockerfile")).isEmpty();
    }

    @Test
    void theComposeFileGivesEveryVariantEverySetting() throws IOException {
        String compose = read("docker/compose.yaml");
        int start = compose.indexOf("\nx-variant:");
        int end = compose.indexOf("\n  depends_on:", start);
        assertThat(start).as("compose.yaml has an x-variant block with an environment and depends_on").isPositive();
        assertThat(end).isGreaterThan(start);
        Set<String> environment = new TreeSet<>();
        Matcher entry = COMPOSE_ENVIRONMENT.matcher(compose.substring(start, end));
        while (entry.find()) {
            environment.add(entry.group(1));
        }
        Set<String> expected = new TreeSet<>(settingNames(false));
        expected.add("TESTBED_JAVA_OPTS");
        assertThat(environment).as("the x-variant environment of compose.yaml").isEqualTo(expected);
    }

    @Test
    void theLauncherPassesTheVariantsModeAsAFlag() throws IOException {
        assertThat(settingNames(true)).contains(MODE);
        assertThat(read("docker/testbed-launch")).as("testbed-launch runs the jar with the mode of variant.conf")
                .containsPattern("read -r VARIANT module jar MODE ")
                .containsPattern("-jar \"\\$JAR\" --mode \"\\$MODE\"");
    }

    /** A default written in a script ({@code ${TESTBED_PORT:-8080}}) is the setting's own. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"docker/compose.yaml", "docker/testbed-launch"})
    void defaultsInScriptsAreTheSettingsDefaults(String file) throws IOException {
        Map<String, String> defaults = settings.stream().collect(Collectors.toMap(Setting::environmentName, Setting::defaultValue));
        Matcher fallback = SHELL_DEFAULT.matcher(read(file));
        while (fallback.find()) {
            String name = fallback.group(1);
            String value = fallback.group(2);
            if (defaults.containsKey(name) && !value.isEmpty()) {
                assertThat(value).as("%s: ${%s:-...}", file, name).isEqualTo(defaults.get(name));
            }
        }
    }

    private Set<String> settingNames(boolean withMode) {
        return settings.stream().map(Setting::environmentName).filter(n -> withMode || !n.equals(MODE))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private Set<String> unknown(Set<String> named, String file) {
        Set<String> unknown = new TreeSet<>(named);
        unknown.removeAll(settingNames(true));
        unknown.removeAll(OWN_NAMES.getOrDefault(file, Set.of()));
        return unknown;
    }

    private static Set<String> names(String text) {
        Set<String> names = new TreeSet<>();
        Matcher name = NAME.matcher(text);
        while (name.find()) {
            names.add(name.group());
        }
        return names;
    }

    private String read(String file) throws IOException {
        return Files.readString(root.resolve(file));
    }
}
