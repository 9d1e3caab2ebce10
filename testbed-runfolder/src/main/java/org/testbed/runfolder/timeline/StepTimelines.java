package org.testbed.runfolder.timeline;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;

/**
 * The report's through-time data: for each step, each of its samples' interval logs summarised
 * second by second ({@link SecondBySecond}), with the server's GC per second where the runner read it.
 * Kept compact, as columns of numbers rounded to what a chart shows, since a run's every sample is
 * embedded in one page: a 30-second sample is a couple of KB.
 */
public final class StepTimelines {
    private StepTimelines() {
    }

    /**
     * The timelines of a run folder: one entry per step that has an interval log, under the step's
     * index in {@code rows}; a sample without a log (measured by wrk) is left out, and one whose log
     * or GC file cannot be read has only {@code error}, saying why.
     */
    public static ObjectNode of(Path runDir, List<ResultRow> rows, List<SampleRecord> samples,
                                Map<ResultRow.StepKey, String> stepRaw) throws IOException {
        Map<ResultRow.StepKey, List<SampleRecord>> byStep = SamplesCsv.byStep(samples);
        ObjectNode timelines = EnvironmentFile.JSON.createObjectNode();
        for (int i = 0; i < rows.size(); i++) {
            ResultRow.StepKey key = rows.get(i).key();
            List<Labelled> raws = new ArrayList<>();
            for (SampleRecord s : byStep.getOrDefault(key, List.of())) {
                raws.add(new Labelled("fork " + s.repeat() + ", iteration " + s.iteration(), s.raw()));
            }
            if (raws.isEmpty() && stepRaw.get(key) != null && !stepRaw.get(key).isEmpty()) {
                raws.add(new Labelled("the sample", stepRaw.get(key)));
            }
            ArrayNode entries = EnvironmentFile.JSON.createArrayNode();
            for (Labelled l : raws) {
                Path hlog = intervalLog(runDir, l.raw());
                if (hlog != null) {
                    ObjectNode sample;
                    try {
                        sample = sample(SecondBySecond.read(hlog, null), GcReadingsCsv.TABLE.read(GcReadingsCsv.beside(hlog)));
                        withFaults(sample, FaultIntervalsCsv.TABLE.read(FaultIntervalsCsv.beside(hlog)));
                    } catch (IOException e) {
                        // One log cut short (a run stopped while writing it) must not cost the whole report: the view says why.
                        sample = EnvironmentFile.JSON.createObjectNode().put("error", e.getMessage());
                    }
                    sample.put("label", l.label());
                    sample.put("log", runDir.relativize(hlog).toString());
                    entries.add(sample);
                }
            }
            if (!entries.isEmpty()) {
                timelines.set(Integer.toString(i), entries);
            }
        }
        return timelines;
    }

    private record Labelled(String label, String raw) {
    }

    /** The interval log beside a sample's raw file ({@code x.txt} → {@code x.hlog}), or null when there is none. */
    static Path intervalLog(Path runDir, String raw) {
        if (raw == null || !raw.endsWith(".txt")) {
            return null;
        }
        Path hlog = runDir.resolve(raw.substring(0, raw.length() - ".txt".length()) + ".hlog");
        return Files.isRegularFile(hlog) ? hlog : null;
    }

    /**
     * One sample as the page draws it: {@code start_ms}; per second {@code n} (responses), {@code rps},
     * {@code p50}, {@code p99}, {@code max} (ms, null when nothing arrived), {@code heat} (the non-zero
     * stretch of the {@link #bucketEdges() buckets}: its first bucket, then the counts); and, when the runner read the server's GC during the window,
     * {@code gc_n} and {@code gc_ms} per second.
     */
    public static ObjectNode sample(SecondBySecond seconds, List<GcReading> gc) {
        ObjectNode n = EnvironmentFile.JSON.createObjectNode();
        n.put("start_ms", seconds.startEpochMillis());
        ArrayNode count = n.putArray("n");
        ArrayNode rps = n.putArray("rps");
        ArrayNode p50 = n.putArray("p50");
        ArrayNode p99 = n.putArray("p99");
        ArrayNode max = n.putArray("max");
        ArrayNode heat = n.putArray("heat");
        for (SecondBySecond.Second s : seconds.seconds()) {
            count.add(s.count());
            rps.add(Math.round(s.rps() * 10) / 10.0);
            addMs(p50, s.p50Ms());
            addMs(p99, s.p99Ms());
            addMs(max, s.maxMs());
            ArrayNode row = heat.addArray();
            long[] b = s.buckets();
            int first = 0;
            int last = b.length - 1;
            while (first <= last && b[first] == 0) {
                first++;
            }
            while (last >= first && b[last] == 0) {
                last--;
            }
            if (first <= last) {
                row.add(first);
                for (int k = first; k <= last; k++) {
                    row.add(b[k]);
                }
            }
        }
        if (gc.size() > 1) {
            double[][] perSecond = seconds.gcPerSecond(gc);
            ArrayNode gcN = n.putArray("gc_n");
            ArrayNode gcMs = n.putArray("gc_ms");
            for (double[] s : perSecond) {
                gcN.add((long) s[0]);
                gcMs.add(Math.round(s[1] * 100) / 100.0);
            }
        }
        return n;
    }

    /**
     * A sample's faults of the store ({@code --fault}), when it had any: {@code faults}, each with its
     * {@code fault} (as a condition writes it), {@code from} and {@code to} (seconds into the window,
     * to the ms) and {@code back} (the first second back to normal, null when none was).
     */
    static void withFaults(ObjectNode sample, List<FaultInterval> faults) {
        if (faults.isEmpty()) {
            return;
        }
        ArrayNode list = sample.putArray("faults");
        for (FaultInterval f : faults) {
            ObjectNode n = list.addObject().put("fault", f.fault())
                    .put("from", Math.round(f.fromS() * 1000) / 1000.0).put("to", Math.round(f.toS() * 1000) / 1000.0);
            if (Double.isFinite(f.backS())) {
                n.put("back", (long) f.backS());
            } else {
                n.putNull("back");
            }
        }
    }

    /** The lower edge of each heat-map bucket, ms: once per page, every sample's {@code heat} indexes it. */
    public static ArrayNode bucketEdges() {
        ArrayNode edges = EnvironmentFile.JSON.createArrayNode();
        for (int k = 0; k < LatencyBuckets.COUNT; k++) {
            edges.add(Double.parseDouble(String.format(Locale.ROOT, "%.4g", LatencyBuckets.lowerEdgeMs(k))));
        }
        return edges;
    }

    /** A latency in ms to four significant digits (microseconds are what the log resolves); null when none. */
    private static void addMs(ArrayNode array, double ms) {
        if (Double.isNaN(ms)) {
            array.addNull();
        } else {
            array.add(Double.parseDouble(String.format(Locale.ROOT, "%.4g", ms)));
        }
    }
}
