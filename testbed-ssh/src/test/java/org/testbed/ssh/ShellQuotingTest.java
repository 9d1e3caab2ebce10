package org.testbed.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Quoting is right when a real shell splits the quoted line back into the words given. */
class ShellQuotingTest {

    @Test
    void plainWordsStayAsTheyAre() {
        assertThat(ShellQuoting.command(List.of("testbed/vertx/testbed-launch", "wait", "180")))
                .isEqualTo("testbed/vertx/testbed-launch wait 180");
    }

    @Test
    void bashSplitsTheQuotedLineIntoTheOriginalWords() throws Exception {
        List<String> words = List.of("a b", "it's", "$HOME", "`id`", "x;y", "", "\"q\"", "back\\slash", "new\nline", "*");
        // printf prints each argument on its own line, bracketed, so empty words and spaces show.
        List<String> command = new ArrayList<>(List.of("printf", "[%s]\\n"));
        command.addAll(words);
        String echoed = bash(ShellQuoting.command(command));
        StringBuilder expected = new StringBuilder();
        for (String word : words) {
            expected.append('[').append(word).append("]\n");
        }
        assertThat(echoed).isEqualTo(expected.toString());
    }

    @Test
    void aQuotedValueSourcedByBashIsTheValue() throws Exception {
        String value = "-Xms1g -Xmx1g -Dx='y z'";
        assertThat(bash("V=" + ShellQuoting.quote(value) + "; printf %s \"$V\"")).isEqualTo(value);
    }

    private static String bash(String script) throws IOException, InterruptedException {
        Process bash = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(bash.exitValue()).as(out).isZero();
        return out;
    }
}
