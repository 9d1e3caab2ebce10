package org.testbed.runfolder.flame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.testbed.runfolder.ResultRow;

/**
 * The differential flame graphs of a compare: for every matched step that both runs profiled
 * (their {@code flame/<variant>/<scenario>-<level>[-r<repeat>].collapsed}), B's samples coloured by
 * the change from A's, each run's repeats added together.
 */
public final class FlameDiffs {
    private FlameDiffs() {
    }

    /** Writes one page per step both runs profiled into {@code outDir}; step to page. */
    public static Map<ResultRow.StepKey, Path> write(Path runA, Path runB, List<ResultRow.StepKey> steps, Path outDir)
            throws IOException {
        Map<ResultRow.StepKey, Path> pages = new LinkedHashMap<>();
        for (ResultRow.StepKey step : steps) {
            List<Path> a = profiles(runA, step);
            List<Path> b = profiles(runB, step);
            if (a.isEmpty() || b.isEmpty()) {
                continue;
            }
            String name = step.variant() + "-" + step.scenario() + "-" + step.levelSlug();
            Path page = outDir.resolve(name + ".html");
            FlameGraphHtml.writeDiff(page, "flame graph diff: " + step.variant() + " " + step.scenario() + " " + step.level(),
                    CollapsedStacks.readAll(a), CollapsedStacks.readAll(b),
                    "B (" + runB.toAbsolutePath().normalize().getFileName() + ") against A ("
                            + runA.toAbsolutePath().normalize().getFileName() + "), " + a.size() + " and " + b.size()
                            + " profile(s) of the step added up.");
            pages.put(step, page);
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
