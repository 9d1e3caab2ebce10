package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.testbed.runner.fuzz.FuzzTargets.Target;
import picocli.CommandLine;

/** {@code ./testbed fuzz}: its help, its options and the build it starts per target, without running one. */
class FuzzCommandTest {

    @Test
    void helpSaysWhatItDoesAndTakes() {
        assertThat(Main.commandLine().parseArgs("fuzz", "--help").subcommand().isUsageHelpRequested()).isTrue();
        CommandLine fuzz = Main.commandLine().getSubcommands().get("fuzz");
        String help = fuzz.getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(help).contains("./testbed fuzz [--duration TIME] [--target NAME]... [--list]", "--duration=TIME",
                "--target=NAME", "--list", "JAZZER_FUZZ=1", "regression mode", "Exit status:");
        assertThat(help.lines()).allMatch(line -> line.length() <= 100, "no line wider than 100 columns");
    }

    @Test
    void theDurationIsWholeSecondsOfAtLeastOne() {
        assertThat(FuzzCommand.seconds("30s")).isEqualTo(30);
        assertThat(FuzzCommand.seconds("1m")).isEqualTo(60);
        assertThat(FuzzCommand.seconds("1500ms")).isEqualTo(2);
        assertThatThrownBy(() -> FuzzCommand.seconds("500ms")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1s");
        assertThatThrownBy(() -> FuzzCommand.seconds("soon")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachTargetIsOneMavenBuildOfItsModuleFuzzingOneMethod() {
        Target t = new Target("testbed-item", "org.testbed.item.ItemCodecFuzzTest", "decodeRequestBody", Path.of("x.java"));
        assertThat(FuzzCommand.command(Path.of("/r"), t, 30)).containsSubsequence("/r/mvnw", "-pl", "testbed-item", "-am", "test",
                "-Dtest=org.testbed.item.ItemCodecFuzzTest#decodeRequestBody", "-Dsurefire.failIfNoSpecifiedTests=false",
                "-Djazzer.internal.arg.0=fuzz", "-Djazzer.internal.arg.1=-max_total_time=30",
                "-Djunit.jupiter.execution.timeout.mode=disabled");
    }
}
