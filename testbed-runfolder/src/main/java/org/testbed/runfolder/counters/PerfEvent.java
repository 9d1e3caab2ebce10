package org.testbed.runfolder.counters;

import java.util.Arrays;
import java.util.List;

/**
 * The events {@code --counters} asks of {@code perf stat}, in the order it asks them. The software
 * events come from the kernel's scheduler and work on any Linux with perf; the hardware ones need a
 * performance monitoring unit the kernel can reach, which many VMs do not expose.
 */
public enum PerfEvent {
    TASK_CLOCK("task-clock", false),
    CONTEXT_SWITCHES("context-switches", false),
    CPU_MIGRATIONS("cpu-migrations", false),
    PAGE_FAULTS("page-faults", false),
    CYCLES("cycles", true),
    INSTRUCTIONS("instructions", true),
    REF_CYCLES("ref-cycles", true),
    BRANCH_MISSES("branch-misses", true),
    LLC_LOADS("LLC-loads", true),
    LLC_LOAD_MISSES("LLC-load-misses", true);

    private final String perfName;
    private final boolean hardware;

    PerfEvent(String perfName, boolean hardware) {
        this.perfName = perfName;
        this.hardware = hardware;
    }

    /** The name {@code perf stat -e} takes and prints. */
    public String perfName() {
        return perfName;
    }

    public boolean hardware() {
        return hardware;
    }

    /** {@code perf stat -e}'s argument for all of them. */
    public static String eventList() {
        return String.join(",", Arrays.stream(values()).map(PerfEvent::perfName).toList());
    }

    public static PerfEvent byPerfName(String name) {
        for (PerfEvent e : values()) {
            if (e.perfName.equals(name)) {
                return e;
            }
        }
        return null;
    }

    public static List<PerfEvent> all() {
        return List.of(values());
    }
}
