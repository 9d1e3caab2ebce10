package org.testbed.runfolder;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A CPU list as {@code taskset -c} writes it ({@code 0}, {@code 0-3}, {@code 0,2-3}): how a run folder
 * records which CPUs the server and the load had, read by the runner to pin them and here to price
 * the server's share of its machine.
 */
public final class CpuList {
    private CpuList() {
    }

    /** The highest CPU number a list may name (Linux's own limit is lower): a range is counted out CPU by CPU. */
    public static final int MAX_CPU = 65_535;

    /** The CPUs of {@code list}, ascending, each once; each 0 to {@link #MAX_CPU}. */
    public static List<Integer> parse(String list) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : list.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            try {
                int dash = p.indexOf('-');
                if (dash > 0) {
                    int from = Integer.parseInt(p.substring(0, dash).strip());
                    int to = Integer.parseInt(p.substring(dash + 1).strip());
                    if (to < from || from < 0 || to > MAX_CPU) {
                        throw new IllegalArgumentException("bad CPU range " + p + ": CPUs are 0 to " + MAX_CPU + ", FROM-TO with FROM <= TO");
                    }
                    for (int i = from; i <= to; i++) {
                        cpus.add(i);
                    }
                } else {
                    int cpu = Integer.parseInt(p);
                    if (cpu < 0 || cpu > MAX_CPU) {
                        throw new IllegalArgumentException("bad CPU " + p + ": CPUs are 0 to " + MAX_CPU);
                    }
                    cpus.add(cpu);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + list + "' is not a CPU list like 0, 0-3 or 0,2");
            }
        }
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("empty CPU list: '" + list + "'");
        }
        return new ArrayList<>(cpus);
    }
}
