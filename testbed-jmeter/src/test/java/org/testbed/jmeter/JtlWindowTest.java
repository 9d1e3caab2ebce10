package org.testbed.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.IntervalLog;
import org.testbed.driver.Latency;
import org.testbed.driver.LoadResult.OperationFigures;

/** JMeter's CSV results read back: quoting as JMeter writes it, the window, percentiles from every sample. */
class JtlWindowTest {
    private static final List<String> MIX = List.of("GET", "POST", "PUT", "DELETE");

    @TempDir
    Path dir;

    @Test
    void readsFieldsByNameAndQuotedMultiLineFailureMessages() throws IOException {
        Path jtl = write("timeStamp,elapsed,label,responseCode,success,failureMessage\n"
                + "1000,3,GET,200,true,\n"
                + "1001,7,PUT,409,false,\"Test failed: code expected to equal /\n\n****** received  : 409\n"
                + "****** comparison: 201, \"\"quoted\"\"\"\n"
                + "1002,1,DELETE,204,true,\n");
        List<JtlReader.Sample> samples = new ArrayList<>();
        JtlReader.read(jtl, samples::add);
        assertThat(samples).hasSize(3);
        assertThat(samples.get(1).label()).isEqualTo("PUT");
        assertThat(samples.get(1).success()).isFalse();
        assertThat(samples.get(1).failureMessage()).startsWith("Test failed: code expected to equal /\n")
                .endsWith("201, \"quoted\"");
        assertThat(samples.get(2).endMillis()).isEqualTo(1003);
    }

    @Test
    void aSampleInFlightAtTheWindowsEndIsUnfinishedEvenWhenJMeterInterruptedIt() throws IOException {
        JtlWindow window = new JtlWindow(MIX, 10_000, 2);
        JtlReader.read(write("timeStamp,elapsed,label,responseCode,success,failureMessage\n"
                + "9000,500,GET,200,true,\n" // the warm-up's: left out
                + "10500,20,GET,200,true,\n"
                + "11000,30,PUT,500,false,Test failed: code expected to equal /\n" // the server's error
                + "11800,1400,PUT,Non HTTP response code: org.apache.http.impl.execchain.RequestAbortedException,false,"
                + "Test failed: code expected to equal /\n" // cut by JMeter after the window: not the server's
                + "11990,300,GET,200,true,\n" // answered after the window
                + "12100,5,GET,200,true,\n"), window::add); // started after the window
        assertThat(window.requests).isEqualTo(2);
        assertThat(window.errors).as("the 500 only").isEqualTo(1);
        assertThat(window.unfinished).as("the interrupted PUT and the late GET").isEqualTo(2);
        assertThat(window.afterWindow).isEqualTo(1);
        assertThat(window.beforeWindow).isEqualTo(1);
    }

    @Test
    void countsSamplesEndingInsideTheWindowPerOperationAndPerSecond() throws IOException {
        StringBuilder jtl = new StringBuilder("timeStamp,elapsed,label,responseCode,success,failureMessage\n");
        // 1000 GETs in the first second, three quarters of them 1 ms, a quarter 2 ms.
        for (int i = 1; i <= 1000; i++) {
            jtl.append(10_000).append(',').append(i % 4 == 0 ? 2 : 1).append(",GET,200,true,\n");
        }
        jtl.append("11200,5,POST,200,true,\n");
        jtl.append("11300,9,POST,412,false,Test failed: code expected to equal /\n");
        jtl.append("11999,2,DELETE,204,true,\n"); // in flight when the 2-second window ends: unfinished
        JtlWindow window = new JtlWindow(MIX, 10_000, 2);
        JtlReader.read(write(jtl.toString()), window::add);

        assertThat(window.requests).isEqualTo(1002);
        assertThat(window.errors).isEqualTo(1);
        assertThat(window.unfinished).isEqualTo(1);
        assertThat(window.afterWindow).isZero();
        assertThat(window.perSecond()).containsExactly(1000, 2);
        // Percentiles from every sample, never averaged: the median is 1 ms, p90 2 ms.
        assertThat(Latency.ofMicros(window.latency).p50()).isEqualTo(1.0);
        assertThat(Latency.ofMicros(window.latency).p90()).isEqualTo(2.0);
        assertThat(Latency.ofMicros(window.latency).max()).isCloseTo(9.0, within(0.01)); // 3 significant digits
        List<OperationFigures> ops = window.operations(2);
        assertThat(ops).extracting(OperationFigures::name).containsExactly("GET", "POST");
        assertThat(ops.get(1).requests()).isEqualTo(2);
        assertThat(ops.get(1).errors()).isEqualTo(1);
        assertThat(ops.get(1).rps()).isEqualTo(1.0);
        assertThat(window.failures()).containsEntry("POST: Test failed: code expected to equal / (status 412)", 1L);
        // Second by second, as testbed-nio's interval log: the window's two seconds, tagged with the operations seen.
        IntervalLog log = window.intervals(2);
        assertThat(log.intervals()).isEqualTo(2);
        assertThat(log.operations()).containsExactly("GET", "POST");
        assertThat(log.startEpochMillis()).isEqualTo(10_000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        log.write(out, List.of("test"));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Tag=GET").contains("Tag=POST");
    }

    @Test
    void refusesResultsWithoutTheFieldsItNeeds() throws IOException {
        Path jtl = write("timeStamp,elapsed,label\n1000,3,GET\n");
        assertThatThrownBy(() -> JtlReader.read(jtl, s -> { }))
                .isInstanceOf(IOException.class).hasMessageContaining("no responseCode field");
    }

    private Path write(String text) throws IOException {
        Path file = dir.resolve("results.jtl");
        Files.writeString(file, text);
        return file;
    }
}
