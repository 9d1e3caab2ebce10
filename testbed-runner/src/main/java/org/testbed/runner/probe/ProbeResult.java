package org.testbed.runner.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testbed.runfolder.counters.CounterRecord;
import org.testbed.runfolder.csv.Measured;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runner.problem.Problem;

/**
 * What the probes made of one step, each part where the run folder keeps it: figures for samples.csv
 * and steps.csv, lines for the step's raw file, a counters.csv and a jfr.csv record, the flame graph
 * and heat map steps.csv links to, and the problems that did not stop the step. One probe's result
 * has a few of these; the step's is every probe's joined ({@link #and}).
 *
 * @param figures the figures declared {@link org.testbed.runfolder.figure.Figure.Source#PROBE}
 * @param rawText what the step's raw file gets after the driver's output, each probe's part starting with its own line break
 * @param counters the server's perf counters over the step ({@code --counters})
 * @param recording the flight recording's summary of the window ({@code --jfr})
 * @param flameGraph the flame graph drawn of the window, relative to the run folder ({@code --flamegraph})
 * @param heatMap its heat map, relative to the run folder
 * @param problems what went wrong without stopping the step
 */
public record ProbeResult(Measured figures, String rawText, Optional<CounterRecord> counters, Optional<JfrRecord> recording,
                          Optional<String> flameGraph, Optional<String> heatMap, List<Problem> problems) {

    /** Nothing observed. */
    public static final ProbeResult NONE = new ProbeResult(Measured.NONE, "", Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), List.of());

    public ProbeResult {
        problems = List.copyOf(problems);
    }

    public ProbeResult withFigures(Measured more) {
        return new ProbeResult(figures.and(more), rawText, counters, recording, flameGraph, heatMap, problems);
    }

    public ProbeResult withRawText(String text) {
        return new ProbeResult(figures, rawText + text, counters, recording, flameGraph, heatMap, problems);
    }

    public ProbeResult withCounters(CounterRecord record) {
        return new ProbeResult(figures, rawText, Optional.of(record), recording, flameGraph, heatMap, problems);
    }

    public ProbeResult withRecording(JfrRecord record) {
        return new ProbeResult(figures, rawText, counters, Optional.of(record), flameGraph, heatMap, problems);
    }

    public ProbeResult withFlameGraph(String graph, String heat) {
        return new ProbeResult(figures, rawText, counters, recording, Optional.of(graph), Optional.of(heat), problems);
    }

    public ProbeResult withProblem(Problem problem) {
        List<Problem> all = new ArrayList<>(problems);
        all.add(problem);
        return new ProbeResult(figures, rawText, counters, recording, flameGraph, heatMap, all);
    }

    /**
     * This result and {@code other}'s: both figures, this raw text before the other's, both problems in
     * that order; a record or file only one of them has is kept, and of two this one's.
     */
    public ProbeResult and(ProbeResult other) {
        List<Problem> all = new ArrayList<>(problems);
        all.addAll(other.problems);
        return new ProbeResult(figures.and(other.figures), rawText + other.rawText, counters.or(other::counters),
                recording.or(other::recording), flameGraph.or(other::flameGraph), heatMap.or(other::heatMap), all);
    }
}
