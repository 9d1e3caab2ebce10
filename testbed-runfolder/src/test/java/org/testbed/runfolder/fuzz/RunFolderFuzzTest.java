package org.testbed.runfolder.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.csv.CsvTable;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.environment.EnvironmentRecord;
import org.testbed.runfolder.environment.ServerPlatform;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.price.Pricing;

/**
 * Coverage-guided fuzz tests (Jazzer) of the readers of a run folder, which {@code report} and
 * {@code compare} point at whatever folder they are given: each input is written as the file
 * ({@code results.csv}, {@code steps.csv}, {@code samples.csv}, {@code environment.json}, a prices
 * file) into a folder of its own and read back through the reader the commands use. JUnit replays
 * the inputs under {@code src/test/resources/org/testbed/runfolder/fuzz/RunFolderFuzzTestInputs/<method>/}
 * (real files as the runner writes them, and every crash found); {@code ./testbed fuzz} fuzzes each.
 *
 * <p>The contracts held, for any file content:
 * <ul>
 *   <li>the CSV tables ({@link CsvTable#read}, {@link ResultsCsv#read}): the records, or an
 *       {@link IOException} naming the file and what is wrong. What was read and written back is stable:
 *       once the writer's rounding is applied, writing what it reads gives the same text and records.</li>
 *   <li>environment.json ({@link EnvironmentFile#read}, {@link EnvironmentFile#readRecord}, and what is
 *       read from it, {@link ServerPlatform#of} and {@link Pricing#read}): a value, or an {@link IOException}
 *       (Jackson's for malformed JSON or a wrong type). A record read, written and read again is equal.</li>
 *   <li>a prices file ({@link PriceList#read}): the prices, or an {@link IllegalArgumentException} naming
 *       the file and line, which the command line reports as a bad argument.</li>
 * </ul>
 * Any other exception or error fails the test. Inputs are at most libFuzzer's length limit (4 KiB by
 * default); one that takes longer than the class's timeout is a hang.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunFolderFuzzTest {
    private static final Path DIR = tempDir();

    private static Path tempDir() {
        try {
            Path dir = Files.createTempDirectory("run-folder-fuzz");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code bytes} as the file {@code name} of the fuzz run folder. */
    private static Path file(String name, byte[] bytes) throws IOException {
        Path file = DIR.resolve(name);
        Files.write(file, bytes);
        file.toFile().deleteOnExit();
        return file;
    }

    @FuzzTest
    void resultsCsv(byte[] content) throws IOException {
        Path file = file(ResultsCsv.FILE, content);
        List<ResultRow> rows;
        try {
            rows = ResultsCsv.read(file);
        } catch (IOException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        writtenTextIsStable(ResultsCsv.TABLE, file, rows);
    }

    @FuzzTest
    void stepsCsv(byte[] content) throws IOException {
        readAndWriteBack(StepsCsv.TABLE, content);
    }

    @FuzzTest
    void samplesCsv(byte[] content) throws IOException {
        readAndWriteBack(SamplesCsv.TABLE, content);
    }

    private static <T> void readAndWriteBack(CsvTable<T> table, byte[] content) throws IOException {
        Path file = file(table.file(), content);
        List<T> records;
        try {
            records = table.read(file);
        } catch (IOException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        writtenTextIsStable(table, file, records);
    }

    /**
     * What was read, written back, reads and writes the same again: the writer's rounding, and what a
     * field the writer never writes becomes ({@code n/a} in a level column reads as unknown, is written
     * empty and then reads as the column's default), are applied once, then the text is stable and its
     * records read back equal.
     */
    private static <T> void writtenTextIsStable(CsvTable<T> table, Path file, List<T> records) throws IOException {
        table.write(file, records);
        table.write(file, table.read(file));
        String written = Files.readString(file, StandardCharsets.UTF_8);
        List<T> again = table.read(file);
        table.write(file, again);
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(written);
        assertThat(table.read(file)).isEqualTo(again);
    }

    @FuzzTest
    void environmentJson(byte[] content) throws IOException {
        Path file = file(EnvironmentFile.NAME, content);
        try {
            ServerPlatform.of(EnvironmentFile.read(file));
        } catch (IOException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
        try {
            Pricing.read(DIR);
        } catch (IOException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
        Optional<EnvironmentRecord> record;
        try {
            record = EnvironmentFile.readRecord(file);
        } catch (IOException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        assertThat(record).isPresent();
        EnvironmentFile.write(file, record.get());
        assertThat(EnvironmentFile.readRecord(file)).isEqualTo(record);
    }

    @FuzzTest
    void pricesFile(byte[] content) throws IOException {
        Path file = file("prices.txt", content);
        PriceList prices;
        try {
            prices = PriceList.read(file);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank().contains(file.toString());
            return;
        }
        assertThat(prices.entries()).isNotEmpty().allSatisfy(e -> assertThat(e.pricePerHour()).isPositive().isFinite());
    }
}
