package org.testbed.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

/**
 * What the harness's launchers of local helper processes (memcached, Toxiproxy) share: a free
 * loopback port to start one on, a kill that waits until it is gone, and a pause while one starts.
 */
public final class ChildProcesses {
    public static final String LOOPBACK = "127.0.0.1";

    private ChildProcesses() {
    }

    /** A loopback port free now; the process given it may still lose it to another, and says so when it cannot bind. */
    public static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("No free loopback port: " + e.getMessage(), e);
        }
    }

    /** SIGKILL, then up to 10 s for the process to be gone; nothing when it already is. */
    public static void killAndWait(Process process) {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sleeps, keeping an interrupt for the caller to see. */
    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
