package org.testbed.runfolder.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.CpuList;
import org.testbed.runfolder.FaultSpec;
import org.testbed.runfolder.StoreLatency;
import org.testbed.runfolder.capacity.Sla;
import org.testbed.runfolder.gate.Assertion;
import org.testbed.runfolder.gate.FailOn;
import org.testbed.runfolder.stats.PrecisionTarget;

/**
 * Coverage-guided fuzz tests (Jazzer) of the parsers of the runner's option values that live with the
 * run folder (the conditions column is read back through the same parser): {@code run --fault}
 * ({@link FaultSpec#parse}), {@code --conditions} and the conditions column ({@link Conditions#parse}),
 * {@code --store-latency} ({@link StoreLatency#parse}), {@code --assert} ({@link Assertion#parse}),
 * {@code compare --fail-on} ({@link FailOn#parse}), {@code --sla} ({@link Sla#parse}), {@code --precision}
 * ({@link PrecisionTarget#parse}) and the CPU lists of {@code --server-cpus} and the pinning
 * ({@link CpuList#parse}). An input is the option's value as UTF-8 text; for the options that take
 * several values (--fail-on, --precision), one value a line. JUnit replays the inputs under
 * {@code src/test/resources/org/testbed/runfolder/fuzz/OptionValuesFuzzTestInputs/<method>/};
 * {@code ./testbed fuzz} fuzzes each.
 *
 * <p>The contract held, for any value: the parsed value, or an {@link IllegalArgumentException} with
 * a one-line message, which the command line prints as a bad argument (exit status 2) before any work.
 * A NumberFormatException is one, and is accepted only where its message is the parser's own, never
 * Java's bare "For input string". Where a value has a written form, it reads back as itself: a
 * fault's {@code spec()} and {@code label()}, a set of conditions' {@code label()}, a store latency's
 * {@code label()}, an assertion's {@code label}, an SLA's {@code label()}. Inputs are at most libFuzzer's
 * length limit (4 KiB by default); one that takes longer than the class's timeout is a hang (a range of
 * CPUs is expanded: a huge one must be refused, not counted out).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OptionValuesFuzzTest {

    private static String text(byte[] raw) {
        return new String(raw, StandardCharsets.UTF_8);
    }

    private static void refused(IllegalArgumentException e) {
        assertThat(e.getMessage()).isNotBlank().doesNotStartWith("For input string");
    }

    @FuzzTest
    void fault(byte[] raw) {
        FaultSpec f;
        try {
            f = FaultSpec.parse(text(raw));
        } catch (IllegalArgumentException e) {
            refused(e);
            return;
        }
        assertThat(FaultSpec.parse(f.spec())).isEqualTo(f);
        assertThat(FaultSpec.parse(f.label())).isEqualTo(f);
        assertThat(f.end()).isNotNull();
    }

    @FuzzTest
    void conditions(byte[] raw) {
        Conditions c;
        try {
            c = Conditions.parse(text(raw));
        } catch (IllegalArgumentException e) {
            refused(e);
            return;
        }
        assertThat(Conditions.parse(c.label())).as("'%s' read back", c.label()).isEqualTo(c);
    }

    @FuzzTest
    void storeLatency(byte[] raw) {
        StoreLatency s;
        try {
            s = StoreLatency.parse(text(raw));
        } catch (IllegalArgumentException e) {
            refused(e);
            return;
        }
        assertThat(Conditions.parse(s.label()).storeLatency()).contains(s);
    }

    @FuzzTest
    void assertion(byte[] raw) {
        Assertion a;
        try {
            a = Assertion.parse(text(raw));
        } catch (IllegalArgumentException e) {
            refused(e);
            return;
        }
        assertThat(Assertion.parse(a.label())).isEqualTo(a);
        assertThat(a.showBound()).isNotBlank();
    }

    @FuzzTest
    void failOn(byte[] raw) {
        List<String> values = Arrays.asList(text(raw).split("\n", -1));
        try {
            FailOn gate = FailOn.parse(values);
            assertThat(gate.minEffects().values()).allSatisfy(min -> assertThat(min).isBetween(0.0, 1.0));
        } catch (IllegalArgumentException e) {
            refused(e);
        }
    }

    @FuzzTest
    void sla(byte[] raw) {
        Sla s;
        try {
            s = Sla.parse(text(raw));
        } catch (IllegalArgumentException e) {
            refused(e);
            return;
        }
        assertThat(Sla.parse(s.label())).isEqualTo(s);
    }

    @FuzzTest
    void precision(byte[] raw) {
        try {
            PrecisionTarget.parse(Arrays.asList(text(raw).split("\n", -1)));
        } catch (IllegalArgumentException e) {
            refused(e);
        }
    }

    @FuzzTest
    void cpuList(byte[] raw) {
        List<Integer> cpus;
        try {
            cpus = CpuList.parse(text(raw));
        } catch (IllegalArgumentException e) {
            refused(e);
            return;
        }
        assertThat(cpus).isNotEmpty().isSorted().doesNotHaveDuplicates().allSatisfy(c -> assertThat(c).isNotNegative());
    }
}
