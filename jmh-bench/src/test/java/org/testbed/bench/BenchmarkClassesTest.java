package org.testbed.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;

/** Keeps the benchmarks honest about what the JMH style asks of them and in step with the manifest. */
class BenchmarkClassesTest {
    static final List<Class<?>> BENCHMARKS = List.of(CodecBenchmark.class, StoreBenchmark.class,
            ServerBenchmark.class, ScenarioBenchmark.class);

    /**
     * JMH needs @Param values as constants, so the variant list is written out in the annotation;
     * this is what keeps it equal to variants.conf (a variant added there must be benchmarked too).
     */
    @Test
    void serverBenchmarkCoversEveryVariantOfTheManifest() throws NoSuchFieldException {
        List<String> manifest = VariantManifest.load(Repository.root().resolve(VariantManifest.FILE_NAME))
                .variants().stream().map(Variant::name).toList();
        String[] annotated = ServerBenchmark.Server.class.getField("variant").getAnnotation(Param.class).value();
        assertThat(Arrays.asList(annotated))
                .as("@Param variant of ServerBenchmark.Server must list variants.conf, in its order")
                .containsExactlyElementsOf(manifest);
    }

    @ParameterizedTest
    @ValueSource(classes = {CodecBenchmark.class, StoreBenchmark.class, ServerBenchmark.class, ScenarioBenchmark.class})
    void eachClassStatesWarmupMeasurementForkAndHasAMain(Class<?> benchmark) throws NoSuchMethodException {
        assertThat(benchmark.getAnnotation(Warmup.class)).as("@Warmup on " + benchmark).isNotNull();
        assertThat(benchmark.getAnnotation(Measurement.class)).as("@Measurement on " + benchmark).isNotNull();
        assertThat(benchmark.getAnnotation(Fork.class)).as("@Fork on " + benchmark).isNotNull();
        assertThat(benchmark.getMethod("main", String[].class)).isNotNull();
        assertThat(Arrays.stream(benchmark.getMethods()).filter(m -> m.isAnnotationPresent(Benchmark.class)))
                .isNotEmpty();
    }

    @Test
    void everyBenchmarkClassIsChecked() {
        // A new benchmark class must be added to the list above.
        List<String> found = Arrays.stream(new java.io.File("src/main/java/org/testbed/bench").listFiles())
                .map(java.io.File::getName).filter(n -> n.endsWith("Benchmark.java"))
                .map(n -> n.substring(0, n.length() - ".java".length())).sorted().toList();
        assertThat(found).containsExactlyInAnyOrderElementsOf(BENCHMARKS.stream().map(Class::getSimpleName).toList());
    }
}
