package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's --help renders as written: picocli warns on stderr about a stray '%' in a text and prints it raw. */
class HelpTextTest {

    @Test
    void everyCommandsHelpRendersWithoutAFormatWarning() {
        PrintStream saved = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = Main.commandLine();
            for (CommandLine sub : cli.getSubcommands().values()) {
                StringWriter out = new StringWriter();
                sub.usage(new PrintWriter(out, true));
                assertThat(out.toString()).as(sub.getCommandName() + " --help").contains("Usage: ");
            }
        } finally {
            System.setErr(saved);
        }
        assertThat(warnings.toString(StandardCharsets.UTF_8)).as("what picocli warned about").isEmpty();
    }
}
