package org.testbed.runner.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.testbed.runfolder.Csv;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.csv.OperationRecord;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.stats.PrecisionTarget;

/**
 * Writes a run's tables as the samples come in, so that the files are complete after every
 * variant should the run be stopped: every sample is appended to {@code samples.csv} (and its
 * operations to {@code operations.csv}), and
 * {@code results.csv} and {@code steps.csv} are rewritten (whole, through a move) with one row per step, the
 * {@link StepAggregate} of its samples so far, steps in the order first measured. Every window's own
 * row and step record go to {@code raw/} too, and every session measured to its end to
 * {@code raw/sessions.csv}: what {@link #resume} folds the kept windows again from.
 */
final class RunRecorder {
    /** Every window's own results.csv row, in the order of samples.csv (which has no column for all of it). */
    static final String WINDOW_RESULTS = "raw/window-results.csv";
    /** Every window's own steps.csv record, in the order of samples.csv. */
    static final String WINDOW_STEPS = "raw/window-steps.csv";
    /** The sessions measured to their end, one line each as it ends. */
    static final String SESSIONS = "raw/sessions.csv";
    private static final List<String> SESSION_COLUMNS = List.of("fork", "variant", "conditions");


    private final Path resultsCsv;
    private final Path stepsCsv;
    private final Path samplesCsv;
    private final Path operationsCsv;
    private final Path countersCsv;
    private final Path capacityCsv;
    private final Path jfrCsv;
    private final Path windowResults;
    private final Path windowSteps;
    private final Path sessions;
    private final Map<ResultRow.StepKey, List<Sample>> byStep = new LinkedHashMap<>();
    /** The order the tables list their steps in: as reserved ({@link #reserve}), then as first measured. */
    private final Map<ResultRow.StepKey, Integer> order = new LinkedHashMap<>();
    /** The run's precision target and its planned forks: what steps.csv says each step met. */
    private PrecisionTarget target = PrecisionTarget.NONE;
    private int plannedForks = 1;

    private RunRecorder(Path out) {
        this.resultsCsv = out.resolve(ResultsCsv.FILE);
        this.stepsCsv = out.resolve(StepsCsv.FILE);
        this.samplesCsv = out.resolve(SamplesCsv.FILE);
        this.operationsCsv = out.resolve(OperationsCsv.FILE);
        this.countersCsv = out.resolve(CountersCsv.FILE);
        this.capacityCsv = out.resolve(CapacityCsv.FILE);
        this.jfrCsv = out.resolve(JfrCsv.FILE);
        this.windowResults = out.resolve(WINDOW_RESULTS);
        this.windowSteps = out.resolve(WINDOW_STEPS);
        this.sessions = out.resolve(SESSIONS);
    }

    /**
     * @param counters whether the samples carry perf counters (then counters.csv is written too)
     * @param capacity whether the run searches capacities under an SLA (then capacity.csv is written too)
     */
    static RunRecorder create(Path out, boolean counters, boolean capacity) throws IOException {
        return create(out, counters, false, capacity);
    }

    /** @param jfr whether the samples carry flight recordings' summaries (then jfr.csv is written too) */
    static RunRecorder create(Path out, boolean counters, boolean jfr, boolean capacity) throws IOException {
        RunRecorder recorder = new RunRecorder(out);
        ResultsCsv.create(recorder.resultsCsv);
        StepsCsv.TABLE.create(recorder.stepsCsv);
        SamplesCsv.TABLE.create(recorder.samplesCsv);
        OperationsCsv.TABLE.create(recorder.operationsCsv);
        ResultsCsv.TABLE.create(recorder.windowResults);
        StepsCsv.TABLE.create(recorder.windowSteps);
        Csv.create(recorder.sessions, SESSION_COLUMNS);
        if (counters) {
            CountersCsv.TABLE.create(recorder.countersCsv);
        }
        if (jfr) {
            JfrCsv.TABLE.create(recorder.jfrCsv);
        }
        if (capacity) {
            CapacityCsv.TABLE.create(recorder.capacityCsv);
        }
        return recorder;
    }

    void record(Sample sample) throws IOException {
        SamplesCsv.TABLE.append(samplesCsv, sample.sample());
        for (OperationRecord operation : sample.operations()) {
            OperationsCsv.TABLE.append(operationsCsv, operation);
        }
        if (sample.probed().counters().isPresent()) {
            CountersCsv.TABLE.append(countersCsv, sample.probed().counters().get());
        }
        if (sample.probed().recording().isPresent()) {
            JfrCsv.TABLE.append(jfrCsv, sample.probed().recording().get());
        }
        ResultsCsv.TABLE.append(windowResults, sample.row());
        StepsCsv.TABLE.append(windowSteps, sample.step());
        hold(sample);
        writeSteps();
    }

    private void hold(Sample sample) {
        order.putIfAbsent(sample.key(), order.size());
        byStep.computeIfAbsent(sample.key(), k -> new ArrayList<>()).add(sample);
    }

    /** results.csv and steps.csv rewritten from the samples held. */
    private void writeSteps() throws IOException {
        List<ResultRow> rows = new ArrayList<>();
        List<StepRecord> steps = new ArrayList<>();
        for (StepAggregate aggregate : aggregates()) {
            rows.add(aggregate.row());
            steps.add(aggregate.step());
        }
        ResultsCsv.write(resultsCsv, rows);
        StepsCsv.TABLE.write(stepsCsv, steps);
    }

    /** Notes that {@code session} was measured to its end: {@code run --resume} keeps its windows. */
    void sessionFinished(SessionKey session) throws IOException {
        Csv.append(sessions, List.of(String.valueOf(session.fork()), session.variant(), session.conditions()));
    }

    /**
     * The recorder of a run folder taken up again ({@code run --resume}): the windows of the sessions
     * measured to their end are kept and folded again; those of a session cut half-way (or failed)
     * are dropped from every table, so that the session can be measured again whole. results.csv
     * keeps its order of steps.
     *
     * @return the recorder, and how many windows it dropped
     */
    static Resumed resume(Path out, boolean counters, boolean jfr) throws IOException {
        RunRecorder recorder = new RunRecorder(out);
        Set<SessionKey> finished = finishedSessions(out);
        List<SampleRecord> samples = SamplesCsv.TABLE.readExisting(recorder.samplesCsv);
        List<ResultRow> rows = ResultsCsv.TABLE.read(recorder.windowResults);
        List<StepRecord> steps = StepsCsv.TABLE.read(recorder.windowSteps);
        List<Sample> kept = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            SampleRecord sample = samples.get(i);
            if (!finished.contains(SessionKey.of(sample.key(), sample.repeat()))) {
                continue;
            }
            if (i >= rows.size() || i >= steps.size() || !rows.get(i).key().equals(sample.key())) {
                throw new IOException(out + ": window " + (i + 1) + " of samples.csv (" + sample.key().describe() + ", fork "
                        + sample.repeat() + ") has no matching line in " + WINDOW_RESULTS + " and " + WINDOW_STEPS);
            }
            kept.add(new Sample(rows.get(i), steps.get(i), sample, List.of()));
        }
        Predicate<SessionKey> keep = finished::contains;
        SamplesCsv.TABLE.write(recorder.samplesCsv, kept.stream().map(Sample::sample).toList());
        ResultsCsv.TABLE.write(recorder.windowResults, kept.stream().map(Sample::row).toList());
        StepsCsv.TABLE.write(recorder.windowSteps, kept.stream().map(Sample::step).toList());
        keepOnly(OperationsCsv.TABLE, recorder.operationsCsv, o -> keep.test(SessionKey.of(o.key(), o.repeat())), true);
        keepOnly(CountersCsv.TABLE, recorder.countersCsv, c -> keep.test(SessionKey.of(c.key(), c.repeat())), counters);
        keepOnly(JfrCsv.TABLE, recorder.jfrCsv, j -> keep.test(SessionKey.of(j.key(), j.repeat())), jfr);
        Csv.write(recorder.sessions, SESSION_COLUMNS, finished.stream()
                .map(s -> List.of(String.valueOf(s.fork()), s.variant(), s.conditions())).toList());
        // The steps in results.csv's order, which an interleaved run reserved before measuring them.
        for (ResultRow row : ResultsCsv.TABLE.read(recorder.resultsCsv)) {
            recorder.reserve(row.key());
        }
        for (Sample sample : kept) {
            recorder.hold(sample);
        }
        recorder.writeSteps();
        return new Resumed(recorder, finished, kept.size(), samples.size() - kept.size());
    }

    /**
     * A run folder's recorder taken up again.
     *
     * @param finished the sessions measured to their end, whose windows are kept
     * @param kept the windows kept
     * @param dropped the windows dropped (of sessions cut half-way or failed)
     */
    record Resumed(RunRecorder recorder, Set<SessionKey> finished, int kept, int dropped) {
    }

    /** The sessions {@code raw/sessions.csv} of {@code out} names, in the order they ended; none when it has no such file. */
    static Set<SessionKey> finishedSessions(Path out) throws IOException {
        Path file = out.resolve(SESSIONS);
        Set<SessionKey> finished = new LinkedHashSet<>();
        if (!Files.isRegularFile(file)) {
            return finished;
        }
        String text = Csv.withoutTornLine(Files.readString(file, StandardCharsets.UTF_8));
        for (Map<String, String> line : Csv.records(text, file.toString(), SESSION_COLUMNS)) {
            try {
                finished.add(new SessionKey(Integer.parseInt(line.get("fork")), line.get("variant"), line.get("conditions")));
            } catch (NumberFormatException e) {
                throw new IOException(file + ": fork '" + line.get("fork") + "' is not a number");
            }
        }
        return finished;
    }

    private static <T> void keepOnly(CsvTable<T> table, Path file, Predicate<T> keep, boolean present) throws IOException {
        if (present && Files.isRegularFile(file)) {
            table.write(file, table.read(file).stream().filter(keep).toList());
        }
    }

    /** Whether any window of {@code session} is held. */
    boolean measured(SessionKey session) {
        return byStep.values().stream().flatMap(List::stream)
                .anyMatch(s -> SessionKey.of(s.key(), s.sample().repeat()).equals(session));
    }

    /** The highest fork of each variant and conditions ({@code "variant conditions"}) among the windows held. */
    Map<String, Integer> lastForks() {
        Map<String, Integer> last = new LinkedHashMap<>();
        byStep.values().forEach(samples -> samples.forEach(s -> last.merge(s.key().variant() + " "
                + s.key().conditions().label(), s.sample().repeat(), Math::max)));
        return last;
    }

    /** Holds every step to {@code target}; forks numbered above {@code plannedForks} count as added for it. */
    void holdTo(PrecisionTarget target, int plannedForks) {
        this.target = target;
        this.plannedForks = plannedForks;
    }

    /** Appends one capacity search's outcome to capacity.csv. */
    void recordCapacity(CapacityRecord record) throws IOException {
        CapacityCsv.TABLE.append(capacityCsv, record);
    }

    /** The samples so far of the step {@code key} (empty when none). */
    List<Sample> samplesOf(ResultRow.StepKey key) {
        return byStep.getOrDefault(key, List.of());
    }

    /**
     * Keeps the tables' place of a step measured later: an interleaved run measures its variants in a new
     * random order every round, and its tables still list them in the run's order.
     */
    void reserve(ResultRow.StepKey key) {
        order.putIfAbsent(key, order.size());
    }

    List<StepAggregate> aggregates() {
        Map<ResultRow.StepKey, List<Sample>> kept = new LinkedHashMap<>();
        byStep.forEach((key, samples) -> kept.put(key, StepAggregate.kept(samples)));
        Map<ResultRow.StepKey, StepPools> pools = StepPools.of(kept);
        return byStep.entrySet().stream().sorted(java.util.Comparator.comparingInt(e -> order.get(e.getKey())))
                .map(e -> StepAggregate.of(e.getValue(), pools.get(e.getKey())).held(target, plannedForks)).toList();
    }

    /** Windows recorded in samples.csv, retaken ones and those left out included. */
    int windows() {
        return byStep.values().stream().mapToInt(List::size).sum();
    }

    /** Steps with a row in results.csv. */
    int steps() {
        return byStep.size();
    }

    Path resultsCsv() {
        return resultsCsv;
    }
}
