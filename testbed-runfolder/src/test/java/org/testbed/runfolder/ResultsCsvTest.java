package org.testbed.runfolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;

class ResultsCsvTest {

    private static ResultRow measured() {
        return new ResultRow(Records.origin(Records.QUOTED_CPU_MODEL, "17.0.15+6"), Records.closed("vertx", "mix", 64),
                "sync", "testbed-nio", new ResultRow.Throughput(10.0, 1000, 2, 12345.6),
                new ResultRow.Latencies(0.5, 1.0, 2.5, 3.0, 4.0), new ResultRow.ServerCost(0.04, 0.01, 200.5, 3, 12.5));
    }

    /** What a load generator outside the server knows: no server CPU, memory or GC, no server JDK or mode. */
    private static ResultRow clientSideOnly() {
        return new ResultRow(new ResultRow.Origin("g1", Records.STARTED_AT, "host", "x86_64", "cpu", 2, ""),
                Records.open("spring-tomcat", "plaintext", 40), "", "gatling", new ResultRow.Throughput(10.0, 400, 0, 40.0),
                new ResultRow.Latencies(0.5, 1.0, 2.5, 3.0, 4.0), ResultRow.ServerCost.UNKNOWN);
    }

    @Test
    void rowsRoundTripThroughTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ResultsCsv.FILE);
        ResultsCsv.write(file, List.of(measured(), clientSideOnly()));
        assertThat(ResultsCsv.read(file)).containsExactly(measured(), clientSideOnly());
    }

    @Test
    void figuresADriverCannotGiveAreEmptyFields(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ResultsCsv.FILE);
        ResultsCsv.create(file);
        ResultsCsv.append(file, clientSideOnly());
        List<List<String>> lines = Csv.parse(Files.readString(file));
        assertThat(lines.get(0)).isEqualTo(ResultsCsv.COLUMNS);
        List<String> row = lines.get(1);
        for (String column : List.of("jdk", "mode", "cpu_user_ms_per_req", "cpu_sys_ms_per_req", "server_rss_mb",
                "gc_count", "gc_ms")) {
            assertThat(row.get(ResultsCsv.COLUMNS.indexOf(column))).as(column).isEmpty();
        }
        assertThat(row.get(ResultsCsv.COLUMNS.indexOf("target_rps"))).isEqualTo("40.0");
    }

    @Test
    void onlyFieldsThatNeedItAreQuoted() {
        assertThat(Csv.line(List.of("plain", "Intel(R) Xeon(R) CPU @ 2.20GHz", "a,b", "say \"hi\"", "two\nlines", "")))
                .isEqualTo("plain,Intel(R) Xeon(R) CPU @ 2.20GHz,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\n");
        assertThat(Csv.parse("a,\"b,c\",\"d\"\"e\"\r\n\r\n\"multi\nline\",,x\n"))
                .containsExactly(List.of("a", "b,c", "d\"e"), List.of("multi\nline", "", "x"));
    }

    @Test
    void aFileWithOtherColumnsIsRefusedSayingWhichItHas(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ResultsCsv.FILE);
        Files.writeString(file, "run_id,window,requests\nr1,all,10\n");
        assertThatThrownBy(() -> ResultsCsv.read(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("does not have the expected columns").hasMessageContaining("window");
    }
}
