package org.testbed.runner.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Jazzer's and Maven's lines, as a fuzzing build prints them (taken from real runs), read into the outcome. */
class FuzzOutputTest {

    private static FuzzOutput read(String... lines) {
        FuzzOutput out = new FuzzOutput();
        for (String line : lines) {
            out.line(line);
        }
        return out;
    }

    @Test
    void aCleanRunIsItsExecutionsAndTime() {
        FuzzOutput out = read("[INFO] Running org.testbed.item.ItemCodecFuzzTest",
                "#2\tINITED cov: 9 ft: 9 corp: 1/1b exec/s: 0 rss: 1324Mb",
                "#16384\tpulse  cov: 12 ft: 12 corp: 3/3b lim: 163 exec/s: 8192 rss: 1439Mb",
                "Done 105558 runs in 16 second(s)",
                "[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 48.65 s -- in org.testbed.item.ItemCodecFuzzTest",
                "[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0",
                "[INFO] BUILD SUCCESS");
        assertThat(out.fuzzed()).isTrue();
        assertThat(out.executions()).contains(105558L);
        assertThat(out.seconds()).contains(16L);
        assertThat(out.crashes()).isZero();
        assertThat(out.testsFailed()).isFalse();
        assertThat(out.buildFailed()).isFalse();
    }

    @Test
    void aCrashIsTheFindingAndWhereItsInputWent() {
        FuzzOutput out = read(
                "artifact_prefix='/r/testbed-item/src/test/resources/org/testbed/item/ItemCodecFuzzTestInputs/decodeStoredBytes/';"
                        + " Test unit written to /r/testbed-item/src/test/resources/org/testbed/item/ItemCodecFuzzTestInputs/decodeStoredBytes/crash-05b0",
                "Base64: e319fX19",
                "Done 32403 runs in 4 second(s)",
                "[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 26.78 s <<< FAILURE! -- in org.testbed.item.ItemCodecFuzzTest",
                "[ERROR]   ItemCodecFuzzTest.decodeStoredBytes(byte[])[2] » FuzzTestFinding java.lang.NullPointerException: id",
                "[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0",
                "[INFO] BUILD FAILURE");
        assertThat(out.crashes()).isEqualTo(1);
        assertThat(out.findings()).containsExactly("java.lang.NullPointerException: id");
        assertThat(out.inputsWritten()).containsExactly(
                "/r/testbed-item/src/test/resources/org/testbed/item/ItemCodecFuzzTestInputs/decodeStoredBytes/crash-05b0");
        assertThat(out.executions()).contains(32403L);
        assertThat(out.testsFailed()).isTrue();
        assertThat(out.buildFailed()).isTrue();
    }

    @Test
    void aHangIsLibFuzzersTimeoutAndItsInput() {
        FuzzOutput out = read("ALARM: working on the last Unit for 3 seconds",
                "artifact_prefix='/r/x/'; Test unit written to /r/x/timeout-b81bd85e",
                "==20862== ERROR: libFuzzer: timeout after 3 seconds",
                "SUMMARY: libFuzzer: timeout",
                "[ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?",
                "[INFO] BUILD FAILURE");
        assertThat(out.findings()).containsExactly("libFuzzer: timeout after 3 seconds");
        assertThat(out.inputsWritten()).containsExactly("/r/x/timeout-b81bd85e");
        assertThat(out.crashes()).isEqualTo(1);
        assertThat(out.fuzzed()).as("libFuzzer ended the JVM before its closing line").isFalse();
    }

    @Test
    void aBuildThatNeverFuzzedSaysSo() {
        FuzzOutput out = read("[INFO] Tests run: 0, Failures: 0, Errors: 0, Skipped: 0", "[INFO] BUILD SUCCESS");
        assertThat(out.fuzzed()).isFalse();
        assertThat(out.executions()).isEmpty();
        assertThat(out.crashes()).isZero();
    }
}
