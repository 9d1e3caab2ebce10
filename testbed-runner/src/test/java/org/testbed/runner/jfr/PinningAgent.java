package org.testbed.runner.jfr;

/**
 * A test-only Java agent that makes a server's JVM pin virtual threads: from its start, a daemon
 * thread pins one virtual thread for {@link Pinning#PIN_MILLIS} every {@link #PERIOD_MILLIS}
 * ({@link Pinning}: inside a class initialiser, what pins on every JDK from 21). Given as
 * {@code -javaagent:JAR=NAME}, it acts only in a JVM whose command line contains {@code NAME} (one
 * variant's jar among a run's variants, which all get the same JVM options) and does nothing in the
 * others. No variant is changed: the agent's pins are its own virtual threads, on the carriers the
 * variant's virtual threads share.
 */
public final class PinningAgent {
    static final long PERIOD_MILLIS = 100;

    private PinningAgent() {
    }

    public static void premain(String only) {
        String command = System.getProperty("sun.java.command", "");
        if (only != null && !only.isEmpty() && !command.contains(only)) {
            return;
        }
        Thread pinner = new Thread(() -> {
            try {
                while (true) {
                    Pinning.pinOnce();
                    Thread.sleep(PERIOD_MILLIS - Pinning.PIN_MILLIS);
                }
            } catch (Exception e) {
                System.err.println("pinning agent stopped: " + e);
            }
        }, "pinning-agent");
        pinner.setDaemon(true);
        pinner.start();
    }
}
