package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The TCP counters that say a server could not keep up with its connections: a SYN or a completed
 * handshake dropped because the listen queue (the accept backlog) was full ({@code TcpExt
 * ListenOverflows}, and {@code ListenDrops}, which counts those and every other drop at a listening
 * socket), and segments sent again ({@code Tcp RetransSegs}), which on loopback happen only when a
 * queue overflowed.
 *
 * <p>They are read from {@code /proc/PID/net/netstat} and {@code /proc/PID/net/snmp}, which show the
 * network namespace of the process: the server's. The kernel keeps them per namespace, not per
 * socket or process, so anything else in that namespace (the load driver and memcached when they
 * share it, as on one machine) adds to them.
 */
public record TcpCounters(long listenOverflows, long listenDrops, long retransSegs) {

    public static TcpCounters read(long pid) throws IOException {
        Path net = Path.of("/proc", Long.toString(pid), "net");
        return parse(Files.readString(net.resolve("netstat")) + Files.readString(net.resolve("snmp")));
    }

    /**
     * Parses the {@code TcpExt:} and {@code Tcp:} pairs of lines (a header line of names, then a line
     * of values) of {@code /proc/net/netstat} and {@code /proc/net/snmp}, given in one text.
     */
    public static TcpCounters parse(String netstatAndSnmp) {
        String[] lines = netstatAndSnmp.split("\\R");
        long overflows = value(lines, "TcpExt:", "ListenOverflows");
        long drops = value(lines, "TcpExt:", "ListenDrops");
        long retrans = value(lines, "Tcp:", "RetransSegs");
        return new TcpCounters(overflows, drops, retrans);
    }

    private static long value(String[] lines, String prefix, String name) {
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].startsWith(prefix) && lines[i + 1].startsWith(prefix)) {
                String[] names = lines[i].trim().split("\\s+");
                String[] values = lines[i + 1].trim().split("\\s+");
                for (int j = 1; j < names.length && j < values.length; j++) {
                    if (names[j].equals(name)) {
                        return Long.parseLong(values[j]);
                    }
                }
            }
        }
        throw new IllegalArgumentException("no " + prefix + " " + name + " counter in /proc/net/netstat or /proc/net/snmp");
    }

    public TcpCounters minus(TcpCounters earlier) {
        return new TcpCounters(listenOverflows - earlier.listenOverflows, listenDrops - earlier.listenDrops,
                retransSegs - earlier.retransSegs);
    }
}
