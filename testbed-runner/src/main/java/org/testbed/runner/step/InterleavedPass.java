package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.testbed.driver.Level;
import org.testbed.runner.host.Freezer;
import org.testbed.runner.problem.Problem;
import org.testbed.runner.problem.Problems;
import org.testbed.ssh.ConnectionLostException;
import org.testbed.variant.Variant;

/**
 * One pass of a run whose variants are measured in turns: it starts and warms up one JVM of every
 * variant (under every set of conditions), keeps them all, frozen while another is measured, and
 * then measures them in rounds: each round takes every kept JVM once, for one window of each step,
 * in a new random order. A JVM's {@code --iterations} are its rounds.
 *
 * <p>Why: measured one after another, variant A's windows and variant B's are minutes apart, and
 * whatever the machine did in between (a neighbour, the host's other tenants, heat) lands on one of
 * them alone; the ratio of the two then holds the machine's drift as much as the servers'
 * difference. Taken in turns, each round's windows of A and B are seconds apart and in an order no
 * drift can follow, so the ratio of a round's two windows compares them under the same conditions
 * (randomized multiple interleaved trials), and the spread of those ratios over the rounds is the
 * noise that remains. A frozen JVM keeps its compiled code, heap and connections and takes no CPU,
 * so each window still has the server CPU to itself.
 *
 * <p>Every window opens after a short unmeasured settle on its own connections
 * ({@code --settle}), so that a thawed JVM's window does not measure the refill of the
 * caches the other JVMs used meanwhile, nor timers that fired on the time that passed while it was
 * frozen.
 *
 * <p>Memory: every kept JVM holds its heap. Before it starts another, the pass checks what the
 * machine has left; when the next one may not fit, it measures the JVMs it has, stops them, and
 * goes on with the rest in a group of their own, and says so.
 */
final class InterleavedPass {
    /** Memory left free at the least, besides room for the next JVM to grow as the biggest so far did. */
    static final long RESERVE_MIB = 2048;

    /** One JVM the pass starts: a variant under one set of conditions, measured by {@code session}. */
    record Member(VariantSession session, Variant variant, Path java, int index, String conditions) {
        String label() {
            return conditions.equals("plain") ? variant.name() : variant.name() + " " + conditions;
        }
    }

    /** What a member's share of the pass cost, for the run's fork costs: wall time, of which warm-ups and windows. */
    record Cost(Member member, long wallMillis, long plannedMillis) {
    }

    private final RunSettings settings;
    private final Progress progress;
    private final Problems problems;
    private final ServerHosting hosting;
    private final Freezer freezer;
    private final Random order;

    /** @param order the random order of each round, seeded so that a run's orders can be told again */
    InterleavedPass(RunSettings settings, Progress progress, Problems problems, ServerHosting hosting, Freezer freezer,
                    Random order) {
        this.settings = settings;
        this.progress = progress;
        this.problems = problems;
        this.hosting = hosting;
        this.freezer = freezer;
        this.order = order;
    }

    /** A kept JVM and the time it has taken so far. */
    private static final class Kept {
        final Member member;
        final VariantSession.Started started;
        final Map<String, WarmUp> warmUps = new java.util.HashMap<>();
        long wallMillis;
        long plannedMillis;

        Kept(Member member, VariantSession.Started started) {
            this.member = member;
            this.started = started;
        }

        long pid() {
            return started.server().pid();
        }
    }

    /**
     * Runs pass {@code repeat} over {@code members}, in groups that fit in memory; tells {@code costs}
     * what each member took. Returns false when the run must stop (the server's machine is lost).
     */
    boolean run(List<Member> members, int repeat, Consumer<Cost> costs) throws InterruptedException {
        List<Kept> group = new ArrayList<>();
        try {
            for (Member member : members) {
                if (!group.isEmpty() && !roomForAnother(group)) {
                    progress.info(String.format(Locale.ROOT, "   memory: %d JVM(s) kept (%s), %d MiB left: measuring these before"
                            + " starting more", group.size(), rssOf(group), availableMib()));
                    measureGroup(group, costs);
                }
                Kept kept = start(member, repeat);
                if (kept != null) {
                    group.add(kept);
                }
            }
            measureGroup(group, costs);
            return true;
        } catch (ConnectionLostException e) {
            problems.machineLost(e.getMessage());
            progress.info("!! " + e.getMessage() + "; the run stops here, the steps measured so far are kept");
            return false;
        } finally {
            stopAll(group, costs);
        }
    }

    /** Starts one member and freezes it at once; null when it could not start (reported). */
    private Kept start(Member member, int repeat) throws InterruptedException {
        long t0 = System.nanoTime();
        try {
            VariantSession.Started started = member.session().start(member.index(), repeat, member.variant(), member.java(),
                    hosting.jdkBeforeStart(member.java()));
            Kept kept = new Kept(member, started);
            try {
                freezer.freeze(kept.pid());
            } catch (IOException e) {
                started.close();
                throw e;
            }
            kept.wallMillis += (System.nanoTime() - t0) / 1_000_000;
            return kept;
        } catch (ConditionRefusedException | ConnectionLostException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            failed(member, e);
            return null;
        }
    }

    /** Warms up and measures every scenario of the group's JVMs in rounds, then stops them. */
    private void measureGroup(List<Kept> group, Consumer<Cost> costs) throws InterruptedException {
        if (group.isEmpty()) {
            return;
        }
        progress.info(String.format(Locale.ROOT, "   %d JVM(s) kept, frozen between their turns (%s); RSS %s",
                group.size(), freezer.describe(), rssOf(group)));
        for (Map.Entry<String, List<Level>> scenario : settings.load().scenarios().entrySet()) {
            String name = scenario.getKey();
            List<Level> levels = scenario.getValue();
            for (Kept kept : group) {
                kept.member.session().reserve(kept.member.variant(), name, levels);
            }
            for (Kept kept : List.copyOf(group)) {
                turn(group, kept, () -> {
                    WarmUp warmUp = kept.member.session().prepare(kept.started, name, levels);
                    kept.warmUps.put(name, warmUp);
                    kept.plannedMillis += Math.round(warmUp.seconds() * 1000);
                });
            }
            int rounds = settings.load().iterations();
            for (int round = 1; round <= rounds && !group.isEmpty(); round++) {
                List<Kept> shuffled = new ArrayList<>(group);
                Collections.shuffle(shuffled, order);
                if (group.size() > 1) {
                    progress.info(String.format(Locale.ROOT, "   %s round %d/%d: %s", name, round, rounds,
                            String.join(", ", shuffled.stream().map(k -> k.member.label()).toList())));
                }
                int iteration = round;
                for (Kept kept : shuffled) {
                    turn(group, kept, () -> {
                        for (Level level : levels) {
                            kept.plannedMillis += kept.member.session().measureLevel(kept.started, name,
                                    kept.warmUps.get(name), level, iteration);
                        }
                    });
                }
            }
        }
        stopAll(group, costs);
    }

    @FunctionalInterface
    private interface Turn {
        void run() throws IOException, InterruptedException;
    }

    /**
     * Thaws {@code kept}, runs {@code work} on it and freezes it again; a JVM whose work failed (it
     * exited, a step could not be measured at all) is reported and stopped, and the group goes on
     * without it.
     */
    private void turn(List<Kept> group, Kept kept, Turn work) throws InterruptedException {
        long t0 = System.nanoTime();
        try {
            hosting.turnOf(kept.member.session().settings());
            freezer.thaw(kept.pid());
            ServerReadiness.awaitHealthy(kept.started.server().baseUri());
            work.run();
            freezer.freeze(kept.pid());
        } catch (ConditionRefusedException | ConnectionLostException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            failed(kept.member, e);
            group.remove(kept);
            stop(kept);
        } finally {
            kept.wallMillis += (System.nanoTime() - t0) / 1_000_000;
        }
    }

    private void failed(Member member, Exception e) {
        Problem problem = problems.sessionFailed(member.label() + (settings.load().repeat() > 1 ? " (a pass)" : ""),
                e.getMessage());
        Path out = settings.output().out();
        progress.info("!! " + problem.firstLine() + " (skipped; see " + out.relativize(out.resolve("logs")) + ")");
    }

    /** Stops every JVM of the group and tells {@code costs} what each took. */
    private void stopAll(List<Kept> group, Consumer<Cost> costs) {
        for (Kept kept : group) {
            long t0 = System.nanoTime();
            stop(kept);
            kept.wallMillis += (System.nanoTime() - t0) / 1_000_000;
            progress.variantDone(Math.max(0, kept.wallMillis - kept.plannedMillis));
            costs.accept(new Cost(kept.member, kept.wallMillis, kept.plannedMillis));
        }
        group.clear();
    }

    private void stop(Kept kept) {
        freezer.release(kept.pid());
        kept.started.close();
    }

    /** Whether another JVM fits beside {@code group}: the reserve left, and room to grow as the biggest kept one. */
    private static boolean roomForAnother(List<Kept> group) {
        long biggest = 0;
        for (Kept kept : group) {
            biggest = Math.max(biggest, rssMib(kept.pid()));
        }
        return availableMib() >= RESERVE_MIB + 2 * biggest;
    }

    /** The kept JVMs' RSS, each and in all: {@code 3 JVMs 1210 MiB (380..450)}. */
    private static String rssOf(List<Kept> group) {
        long total = 0;
        long low = Long.MAX_VALUE;
        long high = 0;
        for (Kept kept : group) {
            long rss = rssMib(kept.pid());
            total += rss;
            low = Math.min(low, rss);
            high = Math.max(high, rss);
        }
        return group.isEmpty() ? "none" : String.format(Locale.ROOT, "%d MiB in all, %d..%d MiB each", total, low, high);
    }

    /** A process's resident memory in MiB ({@code VmRSS} of {@code /proc/PID/status}), 0 once it is gone. */
    static long rssMib(long pid) {
        return kibOf(Path.of("/proc", Long.toString(pid), "status"), "VmRSS:") / 1024;
    }

    /** What the machine can still give without swapping ({@code MemAvailable}), in MiB. */
    static long availableMib() {
        return kibOf(Path.of("/proc/meminfo"), "MemAvailable:") / 1024;
    }

    private static long kibOf(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.substring(key.length()).strip().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
