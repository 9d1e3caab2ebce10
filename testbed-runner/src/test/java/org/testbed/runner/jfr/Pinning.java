package org.testbed.runner.jfr;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Makes a virtual thread pin its carrier for a while, the way each JDK since 21 still pins: it
 * blocks inside a class initialiser, a VM call the virtual thread cannot unmount across (JDK 24
 * lifted the pin of {@code synchronized}, JEP 491, so a sleep inside one pins on 21 to 23 only).
 * Each pin loads a fresh copy of {@link SlowInit} in a class loader of its own, so that its
 * initialiser runs again. Compiled for release 17, it starts virtual threads through reflection.
 */
public final class Pinning {
    /** How long each pin blocks: above the 20 ms from which the JDK records {@code jdk.VirtualThreadPinned}. */
    public static final long PIN_MILLIS = 40;

    private Pinning() {
    }

    /** A class whose initialiser blocks for {@link #PIN_MILLIS}. */
    public static final class SlowInit {
        static {
            try {
                Thread.sleep(PIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private SlowInit() {
        }
    }

    /** Pins one virtual thread for {@link #PIN_MILLIS} and waits for it. */
    static void pinOnce() throws Exception {
        URL classes = Pinning.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader fresh = new URLClassLoader(new URL[] {classes}, null)) {
            Thread thread = startVirtualThread(() -> {
                try {
                    Class.forName(SlowInit.class.getName(), true, fresh);
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            });
            thread.join();
        }
    }

    static Thread startVirtualThread(Runnable task) throws Exception {
        return (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
    }
}
