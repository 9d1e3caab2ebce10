package org.testbed.runner.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.testbed.runner.fuzz.FuzzTargets.Target;

/**
 * The targets {@code ./testbed fuzz} runs are read from the sources, and cannot miss a {@code @FuzzTest}:
 * every annotation of the repository's test sources is one target, and every fuzz test class bounds
 * an input's time, so that a hang fails the normal build and stops a fuzzing run.
 */
class FuzzTargetsTest {
    /** The repository, as Surefire is told it (testbed-runner's pom), else the module's parent. */
    private static final Path ROOT = Path.of(System.getProperty("testbed.root", "..")).toAbsolutePath().normalize();

    @Test
    void readsEachAnnotatedMethodWithItsArgumentsAnnotationsAndModifiers() {
        String source = """
                package org.example.fuzz;

                """ + "import com.code_intelligence.jazzer.junit.FuzzTest;" + """

                /** Not this one: {@link FuzzTest}, nor // @FuzzTest void commented(). */
                class SomeFuzzTest {
                    @FuzzTest
                    void plain(byte[] data) {
                    }

                    @FuzzTest(maxDuration = "10s")
                    @SuppressWarnings("unused") @org.junit.jupiter.api.Tag("x")
                    public static void withEverything(
                            com.code_intelligence.jazzer.api.FuzzedDataProvider data) {
                    }

                    // @FuzzTest void commentedOut(byte[] data) {}
                    /* @FuzzTest void alsoCommentedOut(byte[] data) {} */
                    @Test
                    void notAFuzzTest() {
                    }
                }
                """;
        List<Target> targets = FuzzTargets.inSource("m", Path.of("x/SomeFuzzTest.java"), source);
        assertThat(targets).extracting(Target::name).containsExactly("m:SomeFuzzTest#plain", "m:SomeFuzzTest#withEverything");
        assertThat(targets.get(0).surefireTest()).isEqualTo("org.example.fuzz.SomeFuzzTest#plain");
        assertThat(targets.get(0).inputsDirectory(Path.of("/r")))
                .isEqualTo(Path.of("/r/m/src/test/resources/org/example/fuzz/SomeFuzzTestInputs/plain"));
    }

    @Test
    void anAnnotationNotReadAsAMethodIsAnErrorNotATargetLeftOut() {
        String source = "package p;\nimport com.code_intelligence.jazzer.junit.FuzzTest;\n" + """
                class OddFuzzTest {
                    @FuzzTest
                    String returnsSomething(byte[] data) { return ""; }
                }
                """;
        assertThatThrownBy(() -> FuzzTargets.inSource("m", Path.of("OddFuzzTest.java"), source))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("1 @FuzzTest annotations, but only 0");
    }

    @Test
    void theRepositorysTargetsAreEveryFuzzTestOfItsSources() throws IOException {
        List<Target> targets = FuzzTargets.scan(ROOT);
        Map<String, Long> byModule = targets.stream().collect(Collectors.groupingBy(Target::module, Collectors.counting()));
        assertThat(byModule.keySet()).contains("testbed-item", "testbed-service", "testbed-driver", "testbed-runfolder",
                "testbed-runner");
        assertThat(targets).extracting(Target::name).contains("testbed-item:ItemCodecFuzzTest#decodeRequestBody",
                "testbed-driver:HttpResponseParserFuzzTest#responseInAnyChunking", "testbed-runfolder:RunFolderFuzzTest#resultsCsv",
                "testbed-runner:LevelsFuzzTest#duration").doesNotHaveDuplicates();

        // Independently of the scanner: every line that starts with @FuzzTest in a test source is one target.
        Pattern annotationLine = Pattern.compile("^\\s*@FuzzTest\\b");
        long annotated = 0;
        try (var files = Files.walk(ROOT)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/test/java/")
                    && !f.toString().contains("/target/")).toList()) {
                annotated += Files.readAllLines(f, StandardCharsets.UTF_8).stream().filter(l -> annotationLine.matcher(l).find()
                        && !f.endsWith("FuzzTargetsTest.java")).count();
            }
        }
        assertThat(targets).hasSize((int) annotated);
    }

    @Test
    void everyFuzzTestClassBoundsAnInputsTimeAndItsModuleDeclaresJazzer() throws IOException {
        Set<Path> sources = FuzzTargets.scan(ROOT).stream().map(Target::source).collect(Collectors.toSet());
        for (Path source : sources) {
            assertThat(Files.readString(source, StandardCharsets.UTF_8)).as(source + ": a class-level @Timeout in a separate thread")
                    .containsPattern("@Timeout\\([^)]*threadMode = Timeout.ThreadMode.SEPARATE_THREAD\\)\\s*class ");
        }
        for (String module : FuzzTargets.scan(ROOT).stream().map(Target::module).distinct().toList()) {
            assertThat(Files.readString(ROOT.resolve(module).resolve("pom.xml"))).as(module + "/pom.xml").contains("<artifactId>jazzer-junit</artifactId>");
        }
    }

    @Test
    void selectsByAnyPartOfTheNameAndRefusesANameThatMatchesNothing() throws IOException {
        List<Target> all = FuzzTargets.scan(ROOT);
        assertThat(FuzzTargets.select(all, List.of())).isEqualTo(all);
        assertThat(FuzzTargets.select(all, List.of("ItemCodecFuzzTest#decodeStoredBytes"))).extracting(Target::name)
                .containsExactly("testbed-item:ItemCodecFuzzTest#decodeStoredBytes");
        assertThat(FuzzTargets.select(all, List.of("testbed-driver:"))).allSatisfy(t -> assertThat(t.module()).isEqualTo("testbed-driver"));
        assertThatThrownBy(() -> FuzzTargets.select(all, List.of("NoSuchFuzzTest"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no fuzz target");
    }
}
