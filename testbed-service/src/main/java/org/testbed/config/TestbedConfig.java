package org.testbed.config;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.testbed.server.ServerTuning;
import org.testbed.service.CpuWork;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The server settings of docs/DESIGN.md, with one name each. A setting comes from a flag
 * ({@code --port 8080}), else the system property ({@code -Dtestbed.port=8080}), else the
 * environment ({@code TESTBED_PORT=8080}), else its default. Every variant parses its arguments
 * here, so {@code --help} and the error messages are the same everywhere.
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = "Starts one testbed server variant. Every option can also be set as an environment"
                + " variable (shown in brackets) or the same name lower-dotted as a system property"
                + " (TESTBED_PORT -> -Dtestbed.port); a flag wins over a property, a property over the environment.")
public final class TestbedConfig {

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "0.0.0.0",
            description = "Bind address [TESTBED_HOST]. Default: ${DEFAULT-VALUE}")
    private String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "8080",
            description = "HTTP port; 0 picks a free one, printed at start [TESTBED_PORT]. Default: ${DEFAULT-VALUE}")
    private int port;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "sync",
            description = "sync, async or virtual, where the variant offers it [TESTBED_MODE]. Default: ${DEFAULT-VALUE}")
    private Mode mode;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "200",
            description = "Worker threads of sync variants [TESTBED_THREADS]. Default: ${DEFAULT-VALUE}")
    private int threads;

    @Option(names = "--tls", paramLabel = "BOOL", defaultValue = "false", arity = "0..1", fallbackValue = "true",
            description = "HTTPS with a self-signed certificate made at start [TESTBED_TLS]. Default: ${DEFAULT-VALUE}")
    private boolean tls;

    @Option(names = "--max-body", paramLabel = "BYTES", defaultValue = "65536",
            description = "Request body limit [TESTBED_MAX_BODY]. Default: ${DEFAULT-VALUE}")
    private int maxBody;

    @Option(names = "--memcached-servers", paramLabel = "HOST:PORT,...", defaultValue = "127.0.0.1:11211",
            description = "Memcached servers, consistent hashing across them [MEMCACHED_SERVERS]. Default: ${DEFAULT-VALUE}")
    private String memcachedServers;

    @Option(names = "--memcached-timeout-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Per-operation Memcached timeout; slower answers become 503 [MEMCACHED_TIMEOUT_MS]. Default: ${DEFAULT-VALUE}")
    private int memcachedTimeoutMs;

    @Option(names = "--idle-timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Close a connection idle (or stalled mid-request) this long [TESTBED_IDLE_TIMEOUT_MS]. Default: ${DEFAULT-VALUE}")
    private int idleTimeoutMs;

    @Option(names = "--accept-queue", paramLabel = "N", defaultValue = "" + ServerTuning.ACCEPT_QUEUE,
            description = "Listen backlog: connections the kernel holds until the server accepts them; 0 keeps"
                    + " the server's own default [TESTBED_ACCEPT_QUEUE]. Default: ${DEFAULT-VALUE}")
    private int acceptQueue;

    @Option(names = "--gzip", paramLabel = "BOOL", defaultValue = "false", arity = "0..1", fallbackValue = "true",
            description = "Gzip responses of at least " + GZIP_MIN_BYTES + " bytes to clients that accept it [TESTBED_GZIP]. Default: ${DEFAULT-VALUE}")
    private boolean gzip;

    @Option(names = "--metrics", paramLabel = "BOOL", defaultValue = "false", arity = "0..1", fallbackValue = "true",
            description = "Request timers and JVM metrics in Prometheus' format at GET /testbed/metrics [TESTBED_METRICS]. Default: ${DEFAULT-VALUE}")
    private boolean metrics;

    @Option(names = "--work-us", paramLabel = "US", defaultValue = "0",
            description = "Pure CPU work, in microseconds at the machine's full speed, that every item request does on"
                    + " its own thread before it is answered, to plant a known cost; 0 is none, at most "
                    + CpuWork.MAX_MICROS + " [TESTBED_WORK_US]. Default: ${DEFAULT-VALUE}")
    private int workUs;

    /**
     * With {@code TESTBED_GZIP}, the smallest body that is compressed, the same on every variant:
     * below about a kilobyte gzip's header and the deflate work cost more than the bytes saved.
     */
    public static final int GZIP_MIN_BYTES = 1024;

    private TestbedConfig() {
    }

    /**
     * Parses a server's arguments for the process: prints help and exits 0 on {@code --help},
     * prints the error and exits 2 on bad input.
     */
    public static TestbedConfig fromCommandLine(String command, String[] args) {
        return fromCommandLine(command, args, Mode.SYNC);
    }

    /**
     * As {@link #fromCommandLine(String, String[])}, for a variant whose own default mode is not
     * sync (an event loop offers only async): {@code defaultMode} applies when neither flag,
     * property nor environment names a mode, and {@code --help} shows it.
     */
    public static TestbedConfig fromCommandLine(String command, String[] args, Mode defaultMode) {
        try {
            TestbedConfig config = parse(command, args, System.getenv(), System.getProperties(), defaultMode);
            if (config != null) {
                return config;
            }
            System.exit(0);
        } catch (IllegalArgumentException e) {
            System.err.println(command + ": " + e.getMessage());
            System.err.println("Try '" + command + " --help' for the options.");
            System.exit(2);
        }
        throw new AssertionError("unreachable");
    }

    /**
     * Parses with explicit sources; returns null after printing help or the version, throws
     * {@link IllegalArgumentException} with a readable message on bad input.
     */
    public static TestbedConfig parse(String command, String[] args, Map<String, String> env, Properties properties) {
        return parse(command, args, env, properties, Mode.SYNC);
    }

    /** As {@link #parse(String, String[], Map, Properties)} with the variant's own default mode. */
    public static TestbedConfig parse(String command, String[] args, Map<String, String> env, Properties properties,
                                      Mode defaultMode) {
        TestbedConfig config = new TestbedConfig();
        CommandLine commandLine = new CommandLine(config)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setDefaultValueProvider(argSpec -> {
                    String value = lookUp(argSpec, env, properties);
                    boolean isMode = argSpec instanceof OptionSpec option && option.longestName().equals("--mode");
                    return value == null && isMode ? defaultMode.label() : value;
                });
        commandLine.setCommandName(command);
        try {
            commandLine.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (commandLine.isUsageHelpRequested()) {
            commandLine.usage(new PrintWriter(System.out, true));
            return null;
        }
        if (commandLine.isVersionHelpRequested()) {
            System.out.println(command);
            return null;
        }
        config.validate();
        return config;
    }

    /**
     * One server setting, in each of its spellings.
     *
     * @param environmentName the environment variable, e.g. {@code TESTBED_MAX_BODY}
     * @param flag the command-line flag, e.g. {@code --max-body}
     * @param propertyName the system property, e.g. {@code testbed.max.body}
     * @param defaultValue the value when nothing sets it, as it would be written on the command line
     */
    public record Setting(String environmentName, String flag, String propertyName, String defaultValue) {
    }

    /**
     * Every server setting, in the order {@code --help} lists them, read from the options declared
     * here: the one list that launchers, the compose file and the documentation must name.
     */
    public static List<Setting> settings() {
        List<Setting> settings = new ArrayList<>();
        for (OptionSpec option : CommandSpec.forAnnotatedObject(new TestbedConfig()).options()) {
            if (!option.usageHelp() && !option.versionHelp()) {
                String environmentName = environmentName(option.longestName());
                settings.add(new Setting(environmentName, option.longestName(), propertyName(environmentName),
                        option.defaultValue()));
            }
        }
        return List.copyOf(settings);
    }

    /** {@code --max-body} becomes TESTBED_MAX_BODY; {@code --memcached-servers} MEMCACHED_SERVERS. */
    static String environmentName(String flag) {
        String name = flag.substring(2).replace('-', '_').toUpperCase(Locale.ROOT);
        return name.startsWith("MEMCACHED_") ? name : "TESTBED_" + name;
    }

    /** TESTBED_MAX_BODY becomes testbed.max.body. */
    static String propertyName(String environmentName) {
        return environmentName.toLowerCase(Locale.ROOT).replace('_', '.');
    }

    private static String lookUp(ArgSpec spec, Map<String, String> env, Properties properties) {
        if (!(spec instanceof OptionSpec option) || option.usageHelp() || option.versionHelp()) {
            return null;
        }
        String environmentName = environmentName(option.longestName());
        String fromProperty = properties.getProperty(propertyName(environmentName));
        if (fromProperty != null) {
            return fromProperty;
        }
        String fromEnvironment = env.get(environmentName);
        return fromEnvironment == null || fromEnvironment.isEmpty() ? null : fromEnvironment;
    }

    private void validate() {
        require(port >= 0 && port <= 65535, "--port must be 0..65535, not " + port);
        require(threads >= 1, "--threads must be at least 1, not " + threads);
        require(maxBody >= 1, "--max-body must be at least 1 byte, not " + maxBody);
        require(memcachedTimeoutMs >= 1, "--memcached-timeout-ms must be at least 1, not " + memcachedTimeoutMs);
        require(idleTimeoutMs >= 1, "--idle-timeout-ms must be at least 1, not " + idleTimeoutMs);
        require(acceptQueue >= 0, "--accept-queue must be 0 (the server's own default) or more, not " + acceptQueue);
        require(workUs >= 0 && workUs <= CpuWork.MAX_MICROS, "--work-us must be a whole number of microseconds from 0 to "
                + CpuWork.MAX_MICROS + ", not " + workUs);
        require(!memcachedServers.isBlank(), "--memcached-servers must name at least one host:port");
        require(!host.isBlank(), "--host must not be empty");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public Mode mode() {
        return mode;
    }

    public int threads() {
        return threads;
    }

    public boolean tls() {
        return tls;
    }

    public int maxBody() {
        return maxBody;
    }

    public String memcachedServers() {
        return memcachedServers;
    }

    public int memcachedTimeoutMs() {
        return memcachedTimeoutMs;
    }

    public int idleTimeoutMs() {
        return idleTimeoutMs;
    }

    /** The listen backlog asked for; 0: the server's own default (see {@code ServerTuning.acceptQueue}). */
    public int acceptQueue() {
        return acceptQueue;
    }

    public boolean gzip() {
        return gzip;
    }

    public boolean metrics() {
        return metrics;
    }

    /** {@code TESTBED_WORK_US}: the CPU work per item request in µs ({@link CpuWork}); 0 is none. */
    public int workMicros() {
        return workUs;
    }

    @Override
    public String toString() {
        return "host=" + host + " port=" + port + " mode=" + mode.label() + " threads=" + threads + " tls=" + tls
                + " max-body=" + maxBody + " memcached-servers=" + memcachedServers
                + " memcached-timeout-ms=" + memcachedTimeoutMs + " idle-timeout-ms=" + idleTimeoutMs
                + " accept-queue=" + acceptQueue
                + " gzip=" + gzip + " metrics=" + metrics + " work-us=" + workUs;
    }
}
