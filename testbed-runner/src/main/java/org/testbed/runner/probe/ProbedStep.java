package org.testbed.runner.probe;

import java.nio.file.Path;
import org.testbed.runfolder.csv.ResultRow;

/**
 * The step a set of probes observes: which it is among the run's samples, and where its files go.
 *
 * @param variant the variant's name
 * @param slug what its files are named after: scenario, level, conditions, fork and iteration ({@code mix-c64-r2})
 * @param out the run folder
 * @param key the step, as the run's tables key it
 * @param repeat its fork (1-based)
 * @param iteration its iteration in the fork (1-based)
 */
public record ProbedStep(String variant, String slug, Path out, ResultRow.StepKey key, int repeat, int iteration) {

    /** A file of the step under one folder of the run folder: {@code FOLDER/VARIANT/SLUG EXTENSION}. */
    public Path file(String folder, String extension) {
        return out.resolve(folder).resolve(variant).resolve(slug + extension);
    }

    /** {@code file} as the run's tables name it: relative to the run folder. */
    public String relative(Path file) {
        return out.relativize(file).toString();
    }

    /** The step as a problem names it: {@code vertx mix-c64}. */
    public String name() {
        return variant + " " + slug;
    }
}
