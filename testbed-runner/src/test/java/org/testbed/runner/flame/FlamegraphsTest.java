package org.testbed.runner.flame;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import one.convert.Arguments;
import one.convert.FlameGraph;
import one.profiler.AsyncProfiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.flame.CollapsedStacks;
import org.testbed.runner.env.Environment;

/**
 * A step's profile from recording to pages, on this JVM: async-profiler loaded here through its Java
 * API (the same library and commands a variant gets through the attach API), a busy method
 * sampled into JFR, and every page drawn from that recording by the converter.
 */
class FlamegraphsTest {
    private static volatile double sink;

    @Test
    void aRecordingBecomesTheFlameGraphItsStacksItsViewsAndAHeatMap(@TempDir Path dir) throws Exception {
        Flamegraphs flamegraphs = Flamegraphs.prepare(dir.resolve("lib"), "cpu");
        Path library = Flamegraphs.extract(dir.resolve("lib"), Environment.arch());
        Flamegraphs.Profiled self = new Flamegraphs.Profiled() {
            @Override
            public void load(String arguments) throws IOException {
                try {
                    AsyncProfiler.getInstance(library.toString()).execute(arguments);
                } catch (IllegalStateException | IllegalArgumentException e) {
                    throw new IOException(e.getMessage(), e);
                }
            }

            @Override
            public String writePath(Path local) {
                return local.toAbsolutePath().toString();
            }

            @Override
            public void fetch(Path local) {
                // written in place
            }
        };
        Path html = dir.resolve("flame/vertx/mix-c0008.html");
        Files.createDirectories(html.getParent());
        flamegraphs.start(self, html);
        spinForTheProfiler(dir.resolve("busy.txt"));
        flamegraphs.stop(self, html);

        assertThat(Flamegraphs.recording(html)).isNotEmptyFile();
        CollapsedStacks stacks = CollapsedStacks.read(Flamegraphs.collapsed(html));
        assertThat(stacks.samples().keySet()).anyMatch(stack -> stack.contains("FlamegraphsTest.spinForTheProfiler"));
        assertThat(stacks.total()).as("about 1 sample per ms of CPU over 0.5 s").isGreaterThan(50);
        // The page holds exactly those samples (read back by the converter's own page reader).
        assertThat(samplesIn(html)).isEqualTo(stacks.total());
        assertThat(Files.readString(html)).contains("<h1>vertx mix-c0008: ");
        assertThat(Files.readString(Flamegraphs.heatmap(html))).contains("vertx mix-c0008: ").contains("samples over time");
        if (flamegraphs.describe().contains("event=cpu")) {
            assertThat(samplesIn(Flamegraphs.userView(html)) + samplesIn(Flamegraphs.kernelView(html)))
                    .as("the two views add up to every sample").isEqualTo(stacks.total());
        }
    }

    private static long samplesIn(Path page) throws IOException {
        FlameGraph read = new FlameGraph(new Arguments("-o", "collapsed"));
        read.parseHtml(new StringReader(Files.readString(page)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        read.dump(out);
        return CollapsedStacks.parse(out.toString(StandardCharsets.UTF_8)).total();
    }

    /** Half a second of user work and system calls. */
    private static void spinForTheProfiler(Path file) throws IOException {
        long end = System.nanoTime() + 500_000_000L;
        double x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x += Math.sqrt(x + i);
            }
            Files.writeString(file, Double.toString(x));
        }
        sink = x;
    }
}
