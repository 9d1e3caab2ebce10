package org.testbed.runfolder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.compare.OperationComparison;
import org.testbed.runfolder.counters.CountersCsv;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.csv.OperationsCsv;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.figure.Figure;
import org.testbed.runfolder.jfr.JfrCsv;
import org.testbed.runfolder.timeline.FaultIntervalsCsv;
import org.testbed.runfolder.timeline.GcReadingsCsv;

/**
 * Keeps the results schema of docs/DESIGN.md true: the column table of each CSV file of a run
 * folder lists exactly the columns this module declares, in order.
 */
class DesignDocumentTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)` \\|", Pattern.MULTILINE);
    /** The repository's docs, seen from this module's folder (where the tests run). */
    private static final Path DESIGN = Path.of("../docs/DESIGN.md");

    static Stream<Arguments> tables() {
        return Stream.of(ResultsCsv.TABLE, StepsCsv.TABLE, SamplesCsv.TABLE, OperationsCsv.TABLE, CountersCsv.TABLE,
                        CapacityCsv.TABLE, OperationComparison.TABLE, GcReadingsCsv.TABLE, JfrCsv.TABLE,
                        FaultIntervalsCsv.TABLE)
                .map(t -> Arguments.of(t.file(), t));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void theColumnTableListsTheDeclaredColumns(String file, CsvTable<?> table) throws IOException {
        List<String> documented = documentedColumns(Files.readString(DESIGN), file);
        // A probe's figure is documented once, in the figures table; its columns follow from it.
        List<String> probed = Stream.of(Figure.Level.values()).flatMap(l -> Figure.probed(l).stream()).map(Figure::key).toList();
        assertThat(documented).as("the column table under '### %s' in docs/DESIGN.md", file)
                .containsExactlyElementsOf(table.names().stream().filter(c -> !probed.contains(c)).toList());
    }

    /** The figures table of docs/DESIGN.md is the declaration, row by row: every figure, in order, as declared. */
    @Test
    void theFiguresTableIsTheDeclaration() throws IOException {
        String markdown = Files.readString(DESIGN);
        Matcher heading = Pattern.compile("^### Figures\\s*$", Pattern.MULTILINE).matcher(markdown);
        assertThat(heading.find()).as("docs/DESIGN.md has a heading '### Figures'").isTrue();
        Matcher next = Pattern.compile("^#{1,6} ", Pattern.MULTILINE).matcher(markdown);
        int end = next.find(heading.end()) ? next.start() : markdown.length();
        List<String> documented = markdown.substring(heading.end(), end).lines().filter(l -> l.startsWith("| `")).toList();
        List<String> declared = Stream.of(Figure.values()).map(DesignDocumentTest::row).toList();
        assertThat(documented).as("the figures table, which should read:%n%s", String.join("\n", declared))
                .containsExactlyElementsOf(declared);
    }

    /** A figure's row: key, label, unit, direction, smallest change, gated by slower, levels, source. */
    static String row(Figure f) {
        return "| `" + f.key() + "` | " + f.label() + " | " + (f.unit().isEmpty() ? "–" : f.unit()) + " | "
                + (f.higherIsBetter() ? "higher" : "lower") + " | "
                + (Double.isFinite(f.minEffect()) ? Math.round(f.minEffect() * 100) + " %" : "–") + " | "
                + (f.gatedBySlower() ? "yes" : "no") + " | "
                + String.join(", ", f.levels().stream().map(l -> l.name().toLowerCase(Locale.ROOT)).toList()) + " | "
                + f.source().name().toLowerCase(Locale.ROOT) + " |";
    }

    /** The first cells of the table rows between the heading {@code ### name} (or {@code ####}) and the next heading. */
    private static List<String> documentedColumns(String markdown, String name) {
        Matcher heading = Pattern.compile("^#{3,4} `?" + Pattern.quote(name) + "`?\\s*$", Pattern.MULTILINE).matcher(markdown);
        assertThat(heading.find()).as("docs/DESIGN.md has a heading '### %s'", name).isTrue();
        int start = heading.end();
        Matcher next = Pattern.compile("^#{1,6} ", Pattern.MULTILINE).matcher(markdown);
        int end = next.find(start) ? next.start() : markdown.length();
        Matcher row = ROW.matcher(markdown.substring(start, end));
        List<String> columns = new ArrayList<>();
        while (row.find()) {
            columns.add(row.group(1));
        }
        return columns;
    }
}
