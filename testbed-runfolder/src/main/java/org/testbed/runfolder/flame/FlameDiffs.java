package org.testbed.runfolder.flame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.testbed.runfolder.csv.ResultRow;

/**
 * The differential flame graphs of a compare: for every matched step that both runs profiled
 * (their {@code flame/<variant>/<scenario>-<level>[-r<repeat>].collapsed}, each run's repeats added
 * together), B's flame graph coloured by the change from A's, drawn by async-profiler's converter,
 * and beside it the frames whose self share changed most ({@link SelfTimeChanges}).
 */
public final class FlameDiffs {
    /** Rows of the table of frames beside each differential graph. */
    static final int TOP_FRAMES = 30;

    private FlameDiffs() {
    }

    /** A step's differential flame graph and its table of frames. */
    public record Pages(Path graph, Path frames) {
    }

    /** Writes the pages of every step both runs profiled into {@code outDir}; step to its pages. */
    public static Map<ResultRow.StepKey, Pages> write(Path runA, Path runB, List<ResultRow.StepKey> steps, Path outDir)
            throws IOException {
        Map<ResultRow.StepKey, Pages> pages = new LinkedHashMap<>();
        for (ResultRow.StepKey step : steps) {
            List<Path> a = profiles(runA, step);
            List<Path> b = profiles(runB, step);
            if (a.isEmpty() || b.isEmpty()) {
                continue;
            }
            CollapsedStacks stacksA = CollapsedStacks.readAll(a);
            CollapsedStacks stacksB = CollapsedStacks.readAll(b);
            String name = step.variant() + "-" + step.scenario() + "-" + step.levelSlug();
            String title = step.variant() + " " + step.scenario() + " " + step.level();
            Path graph = ProfilerConverter.diff(stacksA, stacksB, "flame graph diff: " + title, outDir.resolve(name + ".html"));
            Path frames = SelfTimeChanges.writePage(outDir.resolve(name + "-frames.html"),
                    "Frames whose self time changed most: " + title,
                    "B (" + runB.toAbsolutePath().normalize().getFileName() + ") against A ("
                            + runA.toAbsolutePath().normalize().getFileName() + "), " + a.size() + " and " + b.size()
                            + " profile(s) of the step added up; each frame's samples as the innermost frame, as a share"
                            + " of its profile's total.",
                    SelfTimeChanges.top(stacksA, stacksB, TOP_FRAMES));
            pages.put(step, new Pages(graph, frames));
        }
        return pages;
    }

    /** The collapsed stacks a run recorded for a step, one per repeat. */
    static List<Path> profiles(Path run, ResultRow.StepKey step) throws IOException {
        Path dir = run.resolve("flame").resolve(step.variant());
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        Pattern name = Pattern.compile(Pattern.quote(step.scenario() + "-" + step.levelSlug()) + "(-r\\d+)?\\.collapsed");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> name.matcher(f.getFileName().toString()).matches()).sorted().toList();
        }
    }

}
