package org.testbed.runfolder.flame;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import one.convert.Arguments;
import one.convert.FlameGraph;
import one.convert.JfrToFlame;
import one.convert.JfrToHeatmap;

/**
 * async-profiler's own converter ({@code tools.profiler:jfr-converter}), called in process: the
 * pages it draws are the ones async-profiler itself writes (canvas, search, zoom, offline), so the
 * project keeps no renderer of its own. Its options are given as on its command line
 * ({@code one.convert.Arguments}), so what a page was drawn with reads as {@code jfrconv} would.
 */
public final class ProfilerConverter {
    private ProfilerConverter() {
    }

    /**
     * A profile's samples as collapsed stacks, frames annotated with their kind ({@code _[j]} Java
     * compiled, {@code _[i]} inlined, {@code _[0]} interpreted, {@code _[k]} kernel, ...). Lambda and
     * other hidden classes lose their address ({@code --norm}): it differs from run to run, and a
     * differential graph would otherwise show every stack through a lambda as new.
     */
    public static CollapsedStacks collapsed(Path jfr) throws IOException {
        FlameGraph graph = JfrToFlame.parse(jfr.toString(), new Arguments("-o", "collapsed", "--norm"));
        return CollapsedStacks.parse(text(graph));
    }

    /** A time-by-sample heat map of the profile (the converter's {@code -o heatmap}). */
    public static Path heatmap(Path jfr, String title, Path html) throws IOException {
        Files.createDirectories(html.toAbsolutePath().getParent());
        JfrToHeatmap.convert(jfr.toString(), html.toString(), new Arguments("-o", "heatmap", "--title", title));
        return html;
    }

    /** The flame graph of {@code profile}. */
    public static Path flameGraph(CollapsedStacks profile, String title, Path html) throws IOException {
        return write(graph(profile, "html", title), html);
    }

    /**
     * The differential flame graph: {@code b} drawn, each frame coloured by the change of its own
     * samples from {@code a} (red more, blue less, yellow new in B).
     */
    public static Path diff(CollapsedStacks a, CollapsedStacks b, String title, Path html) throws IOException {
        return write(diffGraph(a, b, "html", title), html);
    }

    /** {@code b} with {@code a}'s counts alongside, as the converter has it before drawing. */
    static FlameGraph diffGraph(CollapsedStacks a, CollapsedStacks b, String output, String title) throws IOException {
        FlameGraph base = graph(a, output, title);
        FlameGraph graph = graph(b, output, title);
        graph.diff(base);
        return graph;
    }

    static FlameGraph graph(CollapsedStacks profile, String output, String title) throws IOException {
        List<String> options = new ArrayList<>(List.of("-o", output));
        if (title != null) {
            options.addAll(List.of("--title", title));
        }
        FlameGraph graph = new FlameGraph(new Arguments(options.toArray(String[]::new)));
        graph.parseCollapsed(new StringReader(profile.text()));
        return graph;
    }

    static String text(FlameGraph graph) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            graph.dump(out);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory", e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Path write(FlameGraph graph, Path html) throws IOException {
        Files.createDirectories(html.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(html)) {
            graph.dump(out);
        }
        return html;
    }
}
