package org.testbed.runner.step;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.environment.RunPlan;

/**
 * A run folder whose run was stopped before its end, read back for {@code run --resume}: the options
 * the run was started with and the build it measured (environment.json's {@code run}), and how long
 * it had measured. Every way the folder cannot be taken up again is refused here in one line
 * ({@link IllegalArgumentException}, the command line's exit status 2), before anything starts.
 *
 * @param folder the run folder, absolute
 * @param plan what environment.json says the run was asked to do
 * @param spent what the attempts so far measured, from each one's start to its last window: what a resumed run's
 *              precision budget has already used
 */
public record ResumePoint(Path folder, RunPlan plan, Duration spent) {

    public static ResumePoint read(Path dir) throws IOException {
        Path folder = dir.toAbsolutePath().normalize();
        Path env = folder.resolve(EnvironmentFile.NAME);
        if (!Files.isRegularFile(env) || !Files.isRegularFile(folder.resolve(SamplesCsv.FILE))) {
            throw new IllegalArgumentException("--resume " + dir + ": not a run folder (it needs " + EnvironmentFile.NAME
                    + " and " + SamplesCsv.FILE + ")");
        }
        Optional<EnvironmentRecord> record = EnvironmentFile.readRecord(env);
        if (record.isEmpty() || record.get().run() == null || record.get().run().plan() == null) {
            throw new IllegalArgumentException("--resume " + dir + ": " + EnvironmentFile.NAME + " does not say how the run was started");
        }
        RunPlan plan = record.get().run().plan();
        if (plan.commandLine() == null || !plan.commandLine().contains("run")) {
            throw new IllegalArgumentException("--resume " + dir + ": " + EnvironmentFile.NAME + " names no run command line;"
                    + " only a folder of ./testbed run can be resumed");
        }
        if (record.get().run().finishedAt().isPresent()) {
            throw new IllegalArgumentException("--resume " + dir + ": the run finished (at " + record.get().run().finishedAt().get()
                    + "); nothing to measure. Its report: ./testbed report " + dir);
        }
        if (!Files.isRegularFile(folder.resolve(RunRecorder.SESSIONS))) {
            throw new IllegalArgumentException("--resume " + dir + ": it has no " + RunRecorder.SESSIONS + " (written by a testbed"
                    + " that did not note its sessions): measure it again in a new folder");
        }
        if (plan.build().isEmpty()) {
            throw new IllegalArgumentException("--resume " + dir + ": " + EnvironmentFile.NAME + " records no build to hold this"
                    + " one to: measure it again in a new folder");
        }
        return new ResumePoint(folder, plan, spent(plan, folder));
    }

    /** The options to parse again: the run's own, without the command's name, the repository, the folder and the id. */
    public List<String> runArguments() {
        return RunInterruption.withoutFolder(plan.commandLine());
    }

    /** Refuses a build other than the one the folder measured. */
    public void requireBuild(String build) {
        if (!build.equals(plan.build())) {
            throw new IllegalArgumentException("--resume " + folder + ": its windows were measured with another build ("
                    + plan.build() + ", now " + (build.isEmpty() ? "unknown" : build) + "): the sources changed since, and"
                    + " the rest would not be measured alike. To measure it all again: "
                    + ("./testbed run " + String.join(" ", runArguments())).strip());
        }
    }

    /**
     * What the attempts so far measured ({@link RunAttempts}), the last one until samples.csv's last
     * write; without that file, from the run's start; zero when neither can be read.
     */
    private static Duration spent(RunPlan plan, Path folder) throws IOException {
        Instant last = Files.getLastModifiedTime(folder.resolve(SamplesCsv.FILE)).toInstant();
        Optional<Duration> attempts = RunAttempts.spentUntil(folder, last);
        if (attempts.isPresent()) {
            return attempts.get();
        }
        try {
            Instant started = Instant.parse(plan.startedAt());
            return last.isAfter(started) ? Duration.between(started, last) : Duration.ZERO;
        } catch (DateTimeParseException | NullPointerException e) {
            return Duration.ZERO;
        }
    }
}
