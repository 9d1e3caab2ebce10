package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.jfr.JfrRecord;
import org.testbed.runner.jfr.Pinning;
import org.testbed.runner.jfr.PinningAgent;
import org.testbed.variant.Jdks;

/**
 * {@code run --jfr} end to end on JDK 21 or later: two virtual-thread variants in one short run, each
 * server recorded over its step. A test agent ({@link PinningAgent}) pins virtual threads in
 * servlet-jetty-virtual's JVM only; servlet-tomcat-virtual gets the same agent, which does nothing
 * there. The recordings must find pins in the first and none in the second (the stock variant does
 * not pin on the JDK found here), and compare must weigh the pins.
 */
class JfrRunIT {
    private static final String PINNED = "servlet-jetty-virtual";
    private static final String STOCK = "servlet-tomcat-virtual";
    private static Path run;
    private static String output;

    @BeforeAll
    static void runWithAPinningVariant() throws Exception {
        Path target = Path.of("target").toAbsolutePath();
        run = target.resolve("jfr-run");
        RunnerJar.deleteRecursively(run);
        Path java = Jdks.javaFor(21).orElseThrow(() -> new IllegalStateException(Jdks.missing(21)));
        Path agent = agentJar(target.resolve("pinning-agent.jar"));
        output = RunnerJar.run(240, "run", "--root", RunnerJar.ROOT.toString(), "--variants", PINNED + "," + STOCK,
                "--scenarios", "delay", "--concurrency", "16", "--duration", "3s", "--warmup", "2s", "--forks", "1",
                "--iterations", "1", "--jfr", "--java", java.toString(), "--jvm-args", "-javaagent:" + agent + "=servlet-jetty",
                "--run-id", "jfr-run", "--out", run.toString());
    }

    /** The agent's jar, from the compiled test classes: its class and {@link Pinning}'s, with a Premain-Class. */
    private static Path agentJar(Path jar) throws IOException {
        Path classes = Path.of(PinningAgent.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), PinningAgent.class.getName());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
            String dir = PinningAgent.class.getPackageName().replace('.', '/');
            try (var files = Files.list(classes.resolve(dir))) {
                for (Path file : files.filter(f -> f.getFileName().toString().startsWith("Pinning")).toList()) {
                    jarOut.putNextEntry(new JarEntry(dir + "/" + file.getFileName()));
                    jarOut.write(Files.readAllBytes(file));
                    jarOut.closeEntry();
                }
            }
        }
        return jar;
    }

    private static JfrRecord row(String variant) throws IOException {
        List<JfrRecord> rows = JfrCsv.TABLE.read(run.resolve(JfrCsv.FILE));
        return rows.stream().filter(r -> r.key().variant().equals(variant)).findFirst().orElseThrow();
    }

    @Test
    void theVariantMadeToPinIsFoundPinned() throws IOException {
        JfrRecord pinned = row(PINNED);
        System.out.println("jfr.csv " + PINNED + ": " + JfrCsv.TABLE.fields(pinned));
        // One pin of 40 ms every 100 ms: about 30 in a window of 3 s, whatever a busy machine delays.
        assertThat(pinned.pinned().count()).isGreaterThanOrEqualTo(5);
        assertThat(pinned.pinned().longestMs()).isGreaterThanOrEqualTo(Pinning.PIN_MILLIS - 1);
        assertThat(pinned.pinned().totalMs()).isGreaterThanOrEqualTo(5 * (Pinning.PIN_MILLIS - 1));
        assertThat(run.resolve(pinned.file())).isNotEmptyFile().hasFileName("delay-c0016.jfr");
        assertThat(output).containsPattern(PINNED + " +delay .*pinned \\d+ times, .* in all, longest \\d+ ms");
        assertThat(Files.readString(run.resolve("raw").resolve(PINNED).resolve("delay-c0016.txt")))
                .contains("pinned virtual threads (jdk.VirtualThreadPinned");
    }

    @Test
    void theStockVariantShowsNoPin() throws IOException {
        JfrRecord stock = row(STOCK);
        System.out.println("jfr.csv " + STOCK + ": " + JfrCsv.TABLE.fields(stock));
        assertThat(stock.pinned().count()).isZero();
        assertThat(stock.requests()).isPositive();
        assertThat(stock.allocationMbPerS()).as("a server allocates as it answers").isPositive();
        assertThat(run.resolve(stock.file())).isNotEmptyFile();
        assertThat(output.lines().filter(l -> l.contains(STOCK + " ") && l.contains(" delay ")).toList())
                .isNotEmpty().noneMatch(l -> l.contains("pinned"));
    }

    @Test
    void compareWeighsThePinsAndTheReportShowsThem() throws Exception {
        String compared = RunnerJar.run(120, "compare", run.toString(), run.toString());
        assertThat(compared).containsPattern(PINNED + " +delay +c=16 +pinned ");
        assertThat(compared).doesNotContainPattern(STOCK + " +delay +c=16 +pinned ");
        assertThat(Files.readString(run.resolve("report.html"))).contains("\"jfr\":{").contains("pinned virtual threads (JFR)");
    }
}
