package org.testbed.runner.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The closing table of {@code ./testbed test} from Maven's reactor summary and the test reports. The
 * reports here are written as Surefire writes them; {@code TestSummaryIT} has real Surefire write them.
 */
class ModuleResultsTest {
    @TempDir
    Path dir;

    @Test
    void aReportsCountsAreItsSuitesAndOldReportsAreNotThisBuilds() throws IOException {
        Path module = dir.resolve("m");
        report(module.resolve("target/surefire-reports/TEST-a.ATest.xml"), 5, 1, 1, 1, "1.250");
        report(module.resolve("target/failsafe-reports/TEST-a.AIT.xml"), 2, 0, 0, 0, "12.5");
        Path old = report(module.resolve("target/surefire-reports/TEST-a.OldTest.xml"), 9, 9, 0, 0, "1");
        Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        Files.writeString(module.resolve("target/surefire-reports/a.ATest.txt"), "not a report");

        TestReports r = TestReports.of(module, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        assertThat(r).isEqualTo(new TestReports(7, 1, 1, 1, 13.75, 2));
        assertThat(r.failed()).isTrue();
        assertThat(TestReports.of(dir.resolve("none"), FileTime.fromMillis(0))).isEqualTo(TestReports.NONE);
    }

    @Test
    void aFileThatIsNoReportIsRefusedByName() throws IOException {
        Path file = dir.resolve("TEST-x.xml");
        Files.writeString(file, "<html/>");
        assertThatThrownBy(() -> TestReports.read(file)).isInstanceOf(IOException.class).hasMessageContaining("TEST-x.xml")
                .hasMessageContaining("<html>");
    }

    @Test
    void theTableSaysEachModulesOutcomeAndNamesTheSkippedOnes() {
        ModuleResults results = new ModuleResults();
        for (String line : List.of(
                "[INFO] testbed-driver ... SUCCESS [  1.0 s]", // before the summary: a line of the build, not its outcome
                "[INFO] ------------------------------------------------------------------------",
                "[INFO] Reactor Summary for testbed-parent 0.1.0-SNAPSHOT:",
                "[INFO] ",
                "[INFO] testbed-parent ..................................... SUCCESS [  0.210 s]",
                "[INFO] testbed-driver ..................................... SUCCESS [ 25.021 s]",
                "[INFO] testbed-jmeter ..................................... FAILURE [01:02 min]",
                "[INFO] testbed-runner ..................................... SKIPPED",
                "[INFO] gatling-sims 0.1.0-SNAPSHOT ........................ SKIPPED",
                "[INFO] ------------------------------------------------------------------------",
                "[INFO] BUILD FAILURE")) {
            results.mavenLine(line);
        }
        results.tests("testbed-driver", new TestReports(120, 0, 0, 2, 20.04, 30));
        results.tests("testbed-jmeter", new TestReports(40, 1, 2, 0, 55.5, 6));

        assertThat(results.modules()).containsExactly("testbed-parent", "testbed-driver", "testbed-jmeter", "testbed-runner",
                "gatling-sims");
        assertThat(results.skipped()).containsExactly("testbed-runner", "gatling-sims");
        assertThat(results.failed()).isTrue();
        assertThat(results.render()).containsExactly(
                "  module          result    tests  failures (+errors)  skipped       time",
                "  testbed-parent  SUCCESS       -                   -        -          -",
                "  testbed-driver  SUCCESS     120                   0        2     20.0 s",
                "  testbed-jmeter  FAILURE      40              1 (+2)        0     55.5 s",
                "  testbed-runner  SKIPPED       -                   -        -          -",
                "  gatling-sims    SKIPPED       -                   -        -          -",
                "  all             FAILURE     160              1 (+2)        2     75.5 s",
                "  skipped because a module they need failed: testbed-runner, gatling-sims");
    }

    @Test
    void aFailedTestFailsTheBuildEvenWhenMavenWasToldToIgnoreIt() {
        ModuleResults results = new ModuleResults();
        results.mavenLine("[INFO] Reactor Summary for p 1:");
        results.mavenLine("[INFO] a .......... SUCCESS [  1.0 s]");
        results.tests("a", new TestReports(3, 0, 0, 0, 1, 1));
        assertThat(results.failed()).isFalse();
        results.tests("a", new TestReports(3, 1, 0, 0, 1, 1));
        assertThat(results.failed()).isTrue();
    }

    private static Path report(Path file, int tests, int failures, int errors, int skipped, String time) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuite xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" version=\"3.0.2\" name=\"a.ATest\""
                + " time=\"" + time + "\" tests=\"" + tests + "\" errors=\"" + errors + "\" skipped=\"" + skipped
                + "\" failures=\"" + failures + "\">\n  <properties/>\n  <testcase name=\"x\" classname=\"a.ATest\" time=\"0.1\"/>\n"
                + "</testsuite>\n");
        return file;
    }
}
