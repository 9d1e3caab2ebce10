package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Keeps the results schema of docs/DESIGN.md true: the column table of each CSV file of a run
 * folder lists exactly the columns testbed-runfolder declares, in order. The classes are read as
 * source text, so this module does not depend on testbed-runfolder.
 */
class DesignDocumentTest {
    private static final String RESULTS = "testbed-runfolder/src/main/java/org/testbed/runfolder/";
    private static final Pattern COLUMNS = Pattern.compile("COLUMNS\\s*=\\s*List\\.of\\((.*?)\\);", Pattern.DOTALL);
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)` \\|", Pattern.MULTILINE);

    private final Path root = ContractVariants.repositoryRoot();

    @ParameterizedTest(name = "{0}")
    @CsvSource({"results.csv, " + RESULTS + "ResultsCsv.java", "steps.csv, " + RESULTS + "csv/StepRecord.java",
        "samples.csv, " + RESULTS + "csv/SampleRecord.java", "counters.csv, " + RESULTS + "counters/CounterRecord.java",
        "capacity.csv, " + RESULTS + "capacity/CapacityRecord.java"})
    void theColumnTableListsTheDeclaredColumns(String csv, String source) throws IOException {
        List<String> declared = declaredColumns(Files.readString(root.resolve(source)));
        assertThat(declared).as("COLUMNS of %s", source).isNotEmpty();
        List<String> documented = documentedColumns(Files.readString(root.resolve("docs/DESIGN.md")), csv);
        assertThat(documented).as("the column table under '### %s' in docs/DESIGN.md, against %s's COLUMNS", csv, source)
                .containsExactlyElementsOf(declared);
    }

    private static List<String> declaredColumns(String java) {
        Matcher list = COLUMNS.matcher(java);
        List<String> columns = new ArrayList<>();
        if (list.find()) {
            Matcher name = QUOTED.matcher(list.group(1));
            while (name.find()) {
                columns.add(name.group(1));
            }
        }
        return columns;
    }

    /** The first cells of the table rows between the heading {@code ### name} and the next heading. */
    private static List<String> documentedColumns(String markdown, String name) {
        Matcher heading = Pattern.compile("^### `?" + Pattern.quote(name) + "`?\\s*$", Pattern.MULTILINE).matcher(markdown);
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
