package org.testbed.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.Level;
import org.testbed.driver.Target;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Workload;

/** What the driver says when JMeter cannot run: a missing home, a launcher that is no JMeter, an open model. */
class JMeterDriverTest {
    private static final Target NOWHERE = Target.of(URI.create("http://127.0.0.1:9"));

    @TempDir
    Path dir;

    @Test
    void aMissingHomeNamesWhatIsMissingAndHowToBuildIt() {
        JMeterHome home = new JMeterHome(dir.resolve("no-home"));
        assertThatThrownBy(home::require).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("JMeter cannot start").hasMessageContaining("no-home/bin/ApacheJMeter.jar is missing")
                .hasMessageContaining("./mvnw -pl testbed-jmeter -am package");
    }

    @Test
    void aLauncherThatIsNoJMeterFailsWithItsOutput() throws IOException {
        Path home = dir.resolve("broken");
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib/ext"));
        Files.writeString(home.resolve("bin/ApacheJMeter.jar"), "not a jar");
        Files.writeString(home.resolve("bin/jmeter.properties"), "");
        JMeterDriver driver = new JMeterDriver(new JMeterHome(home), dir.resolve("work"), Duration.ofSeconds(1));
        assertThatThrownBy(() -> driver.run(NOWHERE, mix(), Level.closed(2), Duration.ofSeconds(1), 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("JMeter failed (exit 1, its test never started)")
                .hasMessageContaining("ApacheJMeter.jar"); // the command, and the JVM's own complaint about the jar
        // Nothing of the step is left but its plan: the lanes go even when JMeter failed.
        try (var steps = Files.list(dir.resolve("work"))) {
            Path step = steps.findFirst().orElseThrow();
            assertThat(step.resolve(JMeterPlan.PLAN_FILE)).isRegularFile();
            assertThat(step.resolve(JMeterPlan.LANES_DIR)).doesNotExist();
        }
    }

    @Test
    void runsTheOpenModelButNotForTheJourneyNorWithRealisticUsers() {
        JMeterDriver driver = new JMeterDriver(new JMeterHome(dir), dir.resolve("work"), Duration.ofSeconds(1));
        assertThat(driver.supports(mix(), Level.open(100))).isTrue();
        assertThat(driver.supports(mix(), Level.closed(8))).isTrue();
        Workload journey = Workload.of("journey", Workload.Settings.defaults(new KeySpace("run", "jmt")));
        assertThat(driver.supports(journey, Level.closed(8))).isTrue();
        assertThat(driver.supports(journey, Level.open(100))).isFalse();
        assertThat(driver.unsupported(journey, Level.open(100))).contains("ordered sequence per user");
        assertThatThrownBy(() -> driver.run(NOWHERE, journey, Level.open(100), Duration.ofSeconds(1), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("JMeter has no open model for journey");
        JMeterDriver realistic = new JMeterDriver(new JMeterHome(dir), dir.resolve("work"), Duration.ofSeconds(1), null,
                new JMeterPlan.Pacing(Duration.ofSeconds(5), org.testbed.scenario.ThinkTime.NONE));
        assertThat(realistic.unsupported(mix(), Level.open(100))).contains("closed model");
    }

    private static Workload mix() {
        return Workload.of("mix", Workload.Settings.defaults(new KeySpace("run", "jmt")));
    }
}
