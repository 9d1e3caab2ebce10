package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.testbed.runfolder.Conditions;
import org.testbed.runner.host.Freezer;
import org.testbed.runner.problem.Problem;
import org.testbed.runner.problem.Problems;
import org.testbed.ssh.ConnectionLostException;
import org.testbed.variant.Variant;

/**
 * The variant sessions of one run: the planned passes (every variant under every set of conditions,
 * once per fork, the variants' order rotated each pass), then the forks the precision phase adds.
 * A session that fails is reported and skipped; a lost server machine stops the run, the steps
 * measured so far kept.
 */
final class RunSessions {
    private final RunSettings settings;
    private final Progress progress;
    private final RunRecorder recorder;
    private final Problems problems;
    private final ServerHosting hosting;
    private final Function<RunSettings, StepMeasurement> measurements;
    private final List<Conditions> conditionSets;
    private final ForkCosts costs = new ForkCosts();
    /** The sessions a resumed run keeps from before ({@code run --resume}): not measured again. */
    private final Set<SessionKey> finished;

    /** @param measurements the step measurement of a session's settings */
    RunSessions(RunSettings settings, Progress progress, RunRecorder recorder, Problems problems, ServerHosting hosting,
                Function<RunSettings, StepMeasurement> measurements) {
        this(settings, progress, recorder, problems, hosting, measurements, Set.of());
    }

    /** @param finished the sessions measured to their end before: skipped */
    RunSessions(RunSettings settings, Progress progress, RunRecorder recorder, Problems problems, ServerHosting hosting,
                Function<RunSettings, StepMeasurement> measurements, Set<SessionKey> finished) {
        this.settings = settings;
        this.progress = progress;
        this.recorder = recorder;
        this.problems = problems;
        this.hosting = hosting;
        this.measurements = measurements;
        this.conditionSets = settings.conditionSets();
        this.finished = Set.copyOf(finished);
    }

    /** Runs every session of {@code javas}; {@code runStart}: when the run started ({@link System#nanoTime}). */
    void run(Map<Variant, Path> javas, long runStart) throws IOException, InterruptedException {
        List<Map.Entry<Variant, Path>> variants = new ArrayList<>(javas.entrySet());
        if (runPlannedPasses(variants) && settings.precision().active() && settings.capacity().isEmpty()) {
            addForks(variants, runStart);
        }
    }

    /** The planned forks; false when the run had to stop. */
    private boolean runPlannedPasses(List<Map.Entry<Variant, Path>> variants) throws InterruptedException {
        List<VariantSession> sessions = new ArrayList<>();
        for (Conditions conditions : conditionSets) {
            sessions.add(session(settings.forConditions(conditions)));
        }
        Optional<Freezer> freezer = interleaving(variants.size());
        if (freezer.isPresent()) {
            return runInterleavedPasses(variants, sessions, freezer.get());
        }
        for (int repeat = 1; repeat <= settings.load().repeat(); repeat++) {
            for (Map.Entry<Variant, Path> entry : Runner.rotated(variants, repeat - 1)) {
                for (int c = 0; c < conditionSets.size(); c++) {
                    if (finished.contains(new SessionKey(repeat, entry.getKey().name(), conditionSets.get(c).label()))) {
                        continue; // resumed: measured before
                    }
                    if (!runSession(sessions.get(c), variants, entry, c, repeat)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * The freezer to interleave the planned passes with, when the run asked for it and can: more than
     * one JVM a pass, the servers on this machine, and no capacity search (whose probes follow each
     * other's answers).
     */
    private Optional<Freezer> interleaving(int variants) {
        if (!settings.load().interleave() || variants * conditionSets.size() < 2 || settings.capacity().isPresent()) {
            return Optional.empty();
        }
        Optional<Freezer> freezer = hosting.freezer();
        if (freezer.isEmpty()) {
            progress.info("   the servers cannot be frozen where they run: the variants are measured one after another");
        }
        return freezer;
    }

    /** Each planned pass keeps a JVM of every variant and conditions and measures them in rounds ({@link InterleavedPass}). */
    private boolean runInterleavedPasses(List<Map.Entry<Variant, Path>> variants, List<VariantSession> sessions,
                                         Freezer freezer) throws InterruptedException {
        Random order = new Random(settings.output().runId().hashCode());
        InterleavedPass pass = new InterleavedPass(settings, progress, problems, hosting, freezer, order);
        for (int repeat = 1; repeat <= settings.load().repeat(); repeat++) {
            List<InterleavedPass.Member> members = new ArrayList<>();
            for (Map.Entry<Variant, Path> entry : Runner.rotated(variants, repeat - 1)) {
                for (int c = 0; c < conditionSets.size(); c++) {
                    if (finished.contains(new SessionKey(repeat, entry.getKey().name(), conditionSets.get(c).label()))) {
                        continue; // resumed: measured before
                    }
                    members.add(new InterleavedPass.Member(sessions.get(c), entry.getKey(), entry.getValue(),
                            c * variants.size() + variants.indexOf(entry) + 1, conditionSets.get(c).label()));
                }
            }
            if (members.isEmpty()) {
                continue;
            }
            if (settings.load().repeat() > 1) {
                progress.info(String.format(Locale.ROOT, "== pass %d/%d: %d JVM(s) started, warmed up and measured in turns",
                        repeat, settings.load().repeat(), members.size()));
            }
            if (!pass.run(members, repeat, cost -> costs.sessionDone(cost.member().variant().name(),
                    cost.member().conditions(), cost.wallMillis(), cost.plannedMillis()))) {
                return false;
            }
            for (InterleavedPass.Member member : members) {
                markFinished(new SessionKey(repeat, member.variant().name(), member.conditions()));
            }
        }
        return true;
    }

    /** The forks added where an interval is still wider than the target, within the run's budget. */
    private void addForks(List<Map.Entry<Variant, Path>> variants, long runStart) throws IOException, InterruptedException {
        new PrecisionPhase(settings, recorder, progress, costs, runStart).run((variant, conditions, scenario, fork,
                                                                                 iterations, why) -> {
            Map.Entry<Variant, Path> entry = variants.stream().filter(e -> e.getKey().name().equals(variant))
                    .findFirst().orElseThrow();
            int c = conditionSets.stream().map(Conditions::label).toList().indexOf(conditions);
            RunSettings under = settings.forConditions(conditionSets.get(c)).forAddedFork(scenario, fork, iterations);
            return runSession(session(under), variants, entry, c, fork);
        });
    }

    /**
     * Notes a session that ran to its end and measured windows as finished, for {@code run --resume};
     * one that failed, or measured nothing (it did not start), is left to be measured again.
     */
    private void markFinished(SessionKey session) {
        boolean measured = recorder.measured(session);
        if (!measured) {
            return;
        }
        try {
            recorder.sessionFinished(session);
        } catch (IOException e) {
            problems.report(Problem.of("cannot note the end of " + session.variant() + " fork " + session.fork() + " in "
                    + RunRecorder.SESSIONS + ": " + e.getMessage() + "; a --resume would measure it again"));
        }
    }

    private VariantSession session(RunSettings under) {
        return new VariantSession(under, measurements.apply(under), progress, recorder, problems, hosting);
    }

    /** Runs one session of a variant (fork {@code fork}, conditions {@code c}); false when the run must stop. */
    private boolean runSession(VariantSession session, List<Map.Entry<Variant, Path>> variants, Map.Entry<Variant, Path> entry,
                               int c, int fork) throws InterruptedException {
        Variant variant = entry.getKey();
        // Keys apart per variant and conditions: a second session must not find the first's items.
        int index = c * variants.size() + variants.indexOf(entry) + 1;
        long t0 = System.nanoTime();
        long planned = 0;
        try {
            planned = session.run(index, fork, variant, entry.getValue(), hosting.jdkBeforeStart(entry.getValue()))
                    .plannedMillis();
            markFinished(new SessionKey(fork, variant.name(), conditionSets.get(c).label()));
        } catch (ConditionRefusedException e) {
            throw e; // --tls or --gzip that a variant cannot honour: the run stops
        } catch (ConnectionLostException e) {
            // The server's machine is gone: every later step would fail the same way. The steps
            // done are kept; the report and environment.json are still written.
            problems.machineLost(e.getMessage());
            progress.info("!! " + e.getMessage() + "; the run stops here, the steps measured so far are kept");
            return false;
        } catch (IOException | RuntimeException e) {
            Problem problem = problems.sessionFailed(variant.name() + (conditionSets.size() > 1
                    ? " " + conditionSets.get(c).label() : "") + (settings.load().repeat() > 1 ? " (fork " + fork + ")" : ""),
                    e.getMessage());
            Path out = settings.output().out();
            progress.info("!! " + problem.firstLine() + " (skipped; see " + out.relativize(out.resolve("logs")) + ")");
        }
        long wall = (System.nanoTime() - t0) / 1_000_000;
        progress.variantDone(Math.max(0, wall - planned));
        costs.sessionDone(variant.name(), conditionSets.get(c).label(), wall, planned);
        return true;
    }
}
