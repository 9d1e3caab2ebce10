package org.testbed.runner.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The CPU limit a process runs under, when its cgroup has one (a container's {@code --cpus}, a
 * systemd unit's {@code CPUQuota=}), and the throttling it caused: a process that used its quota
 * before the period (100 ms by default) ended is stopped until the next one, however idle the
 * machine. Without a limit there is nothing to throttle and nothing to read ({@link #locate} is
 * empty).
 *
 * <p>The limit may sit on the process's own cgroup or any above it, so the cgroups from its own up
 * to the hierarchy's root are tried, nearest first, in the unified hierarchy (v2: {@code cpu.max}
 * other than {@code max}) and in the v1 {@code cpu} controller's ({@code cpu.cfs_quota_us} other
 * than {@code -1}); the first with a limit is the one whose {@code cpu.stat} counts the throttling.
 * The process's cgroup comes from {@code /proc/PID/cgroup}, the hierarchies' mount points from the
 * reader's {@code /proc/self/mountinfo}.
 *
 * @param dir the cgroup's directory
 * @param limitCpus its quota over its period: how many CPUs' worth of time it may use
 */
public record CgroupCpu(Path dir, double limitCpus) {

    /**
     * What {@code cpu.stat} counts, cumulative.
     *
     * @param periods enforcement periods in which the cgroup ran
     * @param throttledPeriods those in which it ran out of quota
     * @param throttledMillis time its threads were held back, summed
     */
    public record Throttling(long periods, long throttledPeriods, double throttledMillis) {
        public Throttling minus(Throttling earlier) {
            return new Throttling(periods - earlier.periods, throttledPeriods - earlier.throttledPeriods,
                    throttledMillis - earlier.throttledMillis);
        }
    }

    /** The limited cgroup of process {@code pid} on this machine, or empty when none limits it. */
    public static Optional<CgroupCpu> locate(long pid) throws IOException {
        List<Path> candidates = candidates(Files.readString(Path.of("/proc", Long.toString(pid), "cgroup")),
                Files.readString(Path.of("/proc/self/mountinfo")));
        return nearestLimit(candidates, path -> {
            try {
                return Files.isReadable(path) ? Optional.of(Files.readString(path)) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        });
    }

    /**
     * The directories of the process's cgroup and of those above it, nearest first, v2's before
     * v1's {@code cpu} controller's; none for a hierarchy that is not mounted.
     *
     * @param procCgroup the text of {@code /proc/PID/cgroup} ({@code ID:CONTROLLERS:PATH} lines)
     * @param mountinfo the text of {@code /proc/self/mountinfo}
     */
    public static List<Path> candidates(String procCgroup, String mountinfo) {
        List<Path> dirs = new ArrayList<>();
        for (boolean unified : new boolean[] {true, false}) {
            for (String line : procCgroup.split("\\R")) {
                String[] f = line.split(":", 3);
                if (f.length < 3) {
                    continue;
                }
                boolean isUnified = f[0].equals("0") && f[1].isEmpty();
                boolean isCpu = List.of(f[1].split(",")).contains("cpu");
                if (unified ? isUnified : !isUnified && isCpu) {
                    mountOf(mountinfo, unified).ifPresent(mount -> dirs.addAll(upwards(mount, f[2])));
                }
            }
        }
        return dirs;
    }

    /** A mounted hierarchy: where it is mounted, and which cgroup its mount point shows. */
    private record Mount(Path point, String root) {
    }

    /** The mount of the unified hierarchy, or of v1's {@code cpu} controller. */
    private static Optional<Mount> mountOf(String mountinfo, boolean unified) {
        for (String line : mountinfo.split("\\R")) {
            // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
            String[] halves = line.split(" - ", 2);
            if (halves.length < 2) {
                continue;
            }
            String[] left = halves[0].split(" ");
            String[] right = halves[1].split(" ");
            if (left.length < 5 || right.length < 3) {
                continue;
            }
            boolean match = unified ? right[0].equals("cgroup2")
                    : right[0].equals("cgroup") && List.of(right[2].split(",")).contains("cpu");
            if (match) {
                return Optional.of(new Mount(Path.of(unescape(left[4])), unescape(left[3])));
            }
        }
        return Optional.empty();
    }

    /** The cgroup's directory under the mount and each one above it up to the mount point. */
    private static List<Path> upwards(Mount mount, String cgroupPath) {
        String root = mount.root.equals("/") ? "" : mount.root;
        if (!cgroupPath.equals(mount.root) && !cgroupPath.startsWith(root + "/")) {
            return List.of(); // outside what this mount shows (another cgroup namespace)
        }
        String relative = cgroupPath.substring(root.length()).replaceFirst("^/+", "");
        List<Path> dirs = new ArrayList<>();
        Path dir = relative.isEmpty() ? mount.point : mount.point.resolve(relative);
        while (dir != null && dir.startsWith(mount.point)) {
            dirs.add(dir);
            dir = dir.getParent();
        }
        return dirs;
    }

    /** mountinfo writes a space as {@code \040}, and so on. */
    private static String unescape(String field) {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    /**
     * The first of {@code candidates} with a CPU limit, its files read through {@code files}
     * (empty for a file that is not there): {@code cpu.max}, else {@code cpu.cfs_quota_us} and
     * {@code cpu.cfs_period_us}.
     */
    public static Optional<CgroupCpu> nearestLimit(List<Path> candidates, Function<Path, Optional<String>> files) {
        for (Path dir : candidates) {
            Optional<String> max = files.apply(dir.resolve("cpu.max"));
            if (max.isPresent()) {
                String[] f = max.get().strip().split("\\s+");
                if (f.length == 2 && !f[0].equals("max")) {
                    return Optional.of(new CgroupCpu(dir, Double.parseDouble(f[0]) / Double.parseDouble(f[1])));
                }
                continue;
            }
            Optional<String> quota = files.apply(dir.resolve("cpu.cfs_quota_us"));
            Optional<String> period = files.apply(dir.resolve("cpu.cfs_period_us"));
            if (quota.isPresent() && period.isPresent() && Long.parseLong(quota.get().strip()) > 0) {
                return Optional.of(new CgroupCpu(dir, Double.parseDouble(quota.get().strip()) / Double.parseDouble(period.get().strip())));
            }
        }
        return Optional.empty();
    }

    /** Its {@code cpu.stat} on this machine now. */
    public Throttling read() throws IOException {
        return parseStat(Files.readString(statFile()));
    }

    /** Its {@code cpu.stat}, to read on the machine it is on. */
    public Path statFile() {
        return dir.resolve("cpu.stat");
    }

    /**
     * Parses {@code cpu.stat}: {@code nr_periods}, {@code nr_throttled}, and {@code throttled_usec}
     * (v2) or {@code throttled_time} (v1, nanoseconds).
     */
    public static Throttling parseStat(String cpuStat) {
        long periods = -1;
        long throttled = -1;
        double millis = Double.NaN;
        for (String line : cpuStat.split("\\R")) {
            String[] f = line.strip().split("\\s+");
            if (f.length != 2) {
                continue;
            }
            switch (f[0]) {
                case "nr_periods" -> periods = Long.parseLong(f[1]);
                case "nr_throttled" -> throttled = Long.parseLong(f[1]);
                case "throttled_usec" -> millis = Long.parseLong(f[1]) / 1e3;
                case "throttled_time" -> millis = Long.parseLong(f[1]) / 1e6;
                default -> {
                }
            }
        }
        if (periods < 0 || throttled < 0 || Double.isNaN(millis)) {
            throw new IllegalArgumentException("not a cgroup cpu.stat (no nr_periods, nr_throttled and throttled time): "
                    + cpuStat.strip().replace('\n', ' '));
        }
        return new Throttling(periods, throttled, millis);
    }
}
