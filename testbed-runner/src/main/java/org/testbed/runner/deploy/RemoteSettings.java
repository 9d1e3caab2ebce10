package org.testbed.runner.deploy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.testbed.config.TestbedConfig;
import org.testbed.config.TestbedConfig.Setting;
import org.testbed.ssh.ShellQuoting;

/**
 * The settings a deployed variant runs with, written to {@code testbed.env} on the target and
 * sourced there by {@code testbed-launch}. A VM runs with the configuration a local
 * {@code ./testbed serve} would have: every server setting of {@link TestbedConfig} set in this
 * shell is passed on, under the same name, except the three the deploy sets itself (the address
 * and port from {@code --bind} and {@code --app-port}, Memcached from {@code --memcached}) and the
 * mode, which is part of the variant (the launcher passes it as {@code --mode}).
 */
public final class RemoteSettings {
    static final String HOST = "TESTBED_HOST";
    static final String PORT = "TESTBED_PORT";
    static final String MEMCACHED = "MEMCACHED_SERVERS";
    static final String MODE = "TESTBED_MODE";
    /** The JVM's options, passed on too: the launcher puts them before -jar, the JVM reads the other. */
    static final List<String> JVM_OPTIONS = List.of("TESTBED_JAVA_OPTS", "JAVA_TOOL_OPTIONS");
    /** The java on the target, from --java. */
    static final String JAVA = "TESTBED_JAVA";
    /** Server flags given after --, kept for restarts. */
    static final String SERVER_ARGS = "TESTBED_SERVER_ARGS";

    private final Map<String, String> values;
    private final List<String> serverArgs;

    private RemoteSettings(Map<String, String> values, List<String> serverArgs) {
        this.values = values;
        this.serverArgs = List.copyOf(serverArgs);
    }

    /** The names taken from this shell when set: the server settings the deploy does not set itself, and the JVM's. */
    public static List<String> passedOn() {
        List<String> names = new ArrayList<>();
        for (Setting setting : TestbedConfig.settings()) {
            String name = setting.environmentName();
            if (!List.of(HOST, PORT, MEMCACHED, MODE).contains(name)) {
                names.add(name);
            }
        }
        names.addAll(JVM_OPTIONS);
        return names;
    }

    /** A setting's default, as TestbedConfig has it: what the deploy falls back to. */
    public static String defaultOf(String name) {
        return TestbedConfig.settings().stream().filter(s -> s.environmentName().equals(name)).findFirst()
                .map(Setting::defaultValue).orElseThrow(() -> new IllegalStateException("no setting " + name));
    }

    /**
     * @param environment this shell's environment, where passed-on settings come from
     * @param memcached   MEMCACHED_SERVERS as the target sees them, null for the default
     * @param appPort     TESTBED_PORT on the target
     * @param bind        TESTBED_HOST, null to leave the server's default
     * @param java        the java on the target, null to let the launcher find one
     * @param serverArgs  flags for the server
     */
    public static RemoteSettings of(Map<String, String> environment, String memcached, int appPort, String bind,
            String java, List<String> serverArgs) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(MEMCACHED, memcached == null || memcached.isBlank() ? defaultOf(MEMCACHED) : memcached);
        values.put(PORT, Integer.toString(appPort));
        if (bind != null && !bind.isBlank()) {
            values.put(HOST, bind);
        }
        for (String name : passedOn()) {
            String value = environment.get(name);
            if (value != null && !value.isEmpty()) {
                values.put(name, value);
            }
        }
        if (java != null && !java.isBlank()) {
            values.put(JAVA, java);
        }
        return new RemoteSettings(values, serverArgs);
    }

    public Map<String, String> values() {
        return Map.copyOf(values);
    }

    public List<String> serverArgs() {
        return serverArgs;
    }

    /** {@code testbed.env}: bash assignments, every value quoted; {@code origin} names where it was written. */
    public String envFile(String origin) {
        StringBuilder file = new StringBuilder("# Written by ./testbed deploy on ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(" from ").append(origin)
                .append(". Sourced by testbed-launch.\n");
        values.forEach((name, value) -> file.append(name).append('=').append(ShellQuoting.quote(value)).append('\n'));
        if (!serverArgs.isEmpty()) {
            file.append(SERVER_ARGS).append("=(")
                    .append(serverArgs.stream().map(ShellQuoting::quote).collect(Collectors.joining(" "))).append(")\n");
        }
        return file.toString();
    }
}
