package org.testbed.runner.deploy;

import java.nio.file.Path;
import java.util.List;
import org.testbed.variant.Variant;

/**
 * One variant to put on a target: its manifest line, the jar to send, the launcher that runs it
 * there ({@code docker/testbed-launch}), the settings, how to start it and how long health may take.
 *
 * @param service       {@code auto}, {@code systemd} or {@code nohup}, as testbed-launch takes it
 * @param healthSeconds how long the variant may take to answer {@code /testbed/health} with 200
 */
public record Deployment(Variant variant, Path jar, Path launcher, RemoteSettings settings, String service,
        int healthSeconds) {

    public static final List<String> SERVICES = List.of("auto", "systemd", "nohup");

    public Deployment {
        if (!SERVICES.contains(service)) {
            throw new IllegalArgumentException("--service must be auto, systemd or nohup, got '" + service + "'");
        }
        if (healthSeconds < 0) {
            throw new IllegalArgumentException("--timeout must be a number of seconds, got " + healthSeconds);
        }
    }

    /** The jar's file name, as it is on the target. */
    public String jarName() {
        return jar.getFileName().toString();
    }
}
