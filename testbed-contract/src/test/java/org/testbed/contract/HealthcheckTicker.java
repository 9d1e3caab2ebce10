package org.testbed.contract;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the HEALTHCHECK of every container still "starting", every second, while compose waits on
 * one. Podman schedules healthchecks with systemd timers; on a machine without systemd they never
 * run by themselves, so compose.yaml's "depends_on: condition: service_healthy" would wait forever.
 * The check run is the image's own, unchanged: only its clock is this thread.
 */
final class HealthcheckTicker {
    private HealthcheckTicker() {
    }

    static Thread start(PodmanLab lab, AtomicBoolean running) {
        Thread thread = new Thread(() -> {
            while (running.get()) {
                String starting = lab.podman(Duration.ofSeconds(20), "ps", "--quiet", "--filter", "health=starting").output();
                for (String id : starting.strip().split("\\s+")) {
                    if (!id.isBlank()) {
                        lab.podman(Duration.ofSeconds(20), "healthcheck", "run", id);
                    }
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "healthcheck-ticker");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
