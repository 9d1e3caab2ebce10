package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every option of {@code ./testbed run} is in the runner README's options table, and the table names no other. */
class RunOptionsDocumentedTest {
    private static final Pattern LISTED = Pattern.compile("(--[a-z][a-z-]*)");

    @Test
    void everyRunOptionIsInTheReadmeTable() throws Exception {
        Set<String> options = new TreeSet<>();
        for (OptionSpec option : new CommandLine(new RunCommand()).getCommandSpec().options()) {
            if (!option.usageHelp() && !option.versionHelp()) {
                options.addAll(Arrays.asList(option.names()));
            }
        }
        String readme = Files.readString(Path.of("README.md"));
        String table = readme.substring(readme.indexOf("## Options (`./testbed run`)"), readme.indexOf("\nProfiles:"));
        Set<String> listed = new TreeSet<>();
        for (String line : table.lines().filter(l -> l.startsWith("| `--")).toList()) {
            Matcher m = LISTED.matcher(line.substring(0, line.indexOf(" |", 2)));
            while (m.find()) {
                listed.add(m.group(1));
            }
        }
        assertThat(options).as("options of ./testbed run").contains("--forks", "--repeat", "--iterations", "--mixed-jdks", "--warmup");
        assertThat(listed).as("options in the first column of testbed-runner/README.md's table").isEqualTo(options);
    }
}
