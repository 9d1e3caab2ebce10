package org.testbed.jmeter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * JMeter's remote engines ({@code jmeter-server}) on other machines, for its distributed mode: the
 * controller runs here ({@code -R}), each engine runs the plan with its share of the step's users
 * and streams its samples back. How the machines are reached (ssh), where JMeter is copied there and
 * how a lost machine is told are the implementer's; {@link JMeterDriver} only starts a step's
 * engines, runs the controller, asks whether one was lost and reads their CPU.
 */
public interface LoadEngines {

    /** The engines' machines, as the raw file names them, in order: the step's users are divided among them. */
    List<String> hosts();

    /**
     * Starts one engine per machine for one step, each listening for the controller, with its users'
     * lanes copied there; engine {@code i} (from 1) is told {@code -Jtestbed.engine=i}, its samples are tagged so.
     *
     * @param properties the JMeter properties every engine runs with (the file the local run passes with {@code -q})
     * @param lanes per machine, the folder of its users' lanes, {@code lane-1.tsv} onwards
     * @param users per machine, its users: the plan's thread count there
     */
    Running start(Path properties, List<Path> lanes, List<Integer> users) throws IOException, InterruptedException;

    /** A step's engines, listening; closing stops them and removes the step's files there. */
    interface Running extends AutoCloseable {
        /** The controller's {@code -R}: {@code host:port,...}, in the order of {@link #hosts()}. */
        String remoteHosts();

        /** This machine's address as the engines reach it: the controller's {@code java.rmi.server.hostname}. */
        String controllerAddress();

        /** The controller's fixed RMI port for the engines' samples ({@code client.rmi.localport}). */
        int controllerPort();

        /** The loss of a machine while the step ran (to be thrown), or null while every engine is there. */
        RuntimeException lost();

        /** Each engine's CPU since it was started for this step, in the order of {@link #hosts()}. */
        List<EngineCpu> cpu() throws IOException;

        @Override
        void close();
    }

    /**
     * @param host the machine
     * @param cpuMs its jmeter-server's CPU time (user + system) since the step's engines were started
     * @param cpus that machine's CPUs
     * @param seconds the time between the two readings: from the engine listening to the step's end
     */
    record EngineCpu(String host, double cpuMs, int cpus, double seconds) {
        /** Its CPU use between the readings, in % of its CPUs. */
        public double pct() {
            return seconds > 0 && cpus > 0 ? 100.0 * cpuMs / (seconds * 1000.0 * cpus) : 0;
        }
    }

    /** {@code users} divided over {@code engines}: as even as it goes, the first ones one more. */
    static List<Integer> split(int users, int engines) {
        if (users < engines) {
            throw new IllegalArgumentException("a step of " + users + " user(s) cannot be divided over " + engines
                    + " load hosts: JMeter's thread count is per engine, each needs at least one");
        }
        return java.util.stream.IntStream.range(0, engines).mapToObj(i -> users / engines + (i < users % engines ? 1 : 0)).toList();
    }
}
