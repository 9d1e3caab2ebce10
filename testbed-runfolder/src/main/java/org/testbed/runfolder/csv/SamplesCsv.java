package org.testbed.runfolder.csv;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code samples.csv}: every measurement of every step ({@link SampleRecord}), in the order taken. */
public final class SamplesCsv {
    public static final String FILE = "samples.csv";
    /** The key columns and {@code repeat} are required; a file from an older runner may lack later ones. */
    public static final CsvTable<SampleRecord> TABLE = new CsvTable<>(FILE, SampleRecord.COLUMNS, 5, SampleRecord::read);

    private SamplesCsv() {
    }

    /**
     * The samples a step's figure is made of: those not left out ({@link SampleRecord#leftOut}, a window
     * on a slow machine), or all of them when every one was (steps.csv's {@code slow_machine_figure}).
     */
    public static List<SampleRecord> kept(List<SampleRecord> stepSamples) {
        List<SampleRecord> kept = stepSamples.stream().filter(s -> !s.leftOut()).toList();
        return kept.isEmpty() ? stepSamples : kept;
    }

    /** The samples of each step that its figure is made of ({@link #kept}), steps in the order first measured. */
    public static Map<ResultRow.StepKey, List<SampleRecord>> keptByStep(List<SampleRecord> samples) {
        Map<ResultRow.StepKey, List<SampleRecord>> map = new LinkedHashMap<>();
        byStep(samples).forEach((key, step) -> map.put(key, kept(step)));
        return map;
    }

    /** The samples of each step, steps in the order first measured. */
    public static Map<ResultRow.StepKey, List<SampleRecord>> byStep(List<SampleRecord> samples) {
        Map<ResultRow.StepKey, List<SampleRecord>> map = new LinkedHashMap<>();
        for (SampleRecord s : samples) {
            map.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s);
        }
        return map;
    }
}
