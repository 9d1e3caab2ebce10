package org.testbed.runner.step;

/**
 * A child JVM's main: two threads that never stop wanting a CPU, for {@link RunQueueWaitTest}.
 * Pinned to one CPU, each waits on the run queue while the other runs. Says {@code spinning} once
 * both run, and ends when its input closes (its parent is done or gone).
 */
public final class TwoSpinners {
    private static volatile long sink;

    private TwoSpinners() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 2; i++) {
            Thread spinner = new Thread(() -> {
                long x = 0;
                while (true) {
                    x++;
                    if ((x & 0xFFFFF) == 0) {
                        sink = x;
                    }
                }
            }, "spinner-" + i);
            spinner.setDaemon(true);
            spinner.start();
        }
        System.out.println("spinning");
        System.out.flush();
        System.in.read(); // its parent closing the pipe, or dying, ends it
    }
}
