package org.testbed.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every knob a simulation reads is listed in README.md, and the README lists no knob that is not read. */
class KnobsDocumentedTest {
    private static final Pattern READ = Pattern.compile("knobs\\.\\w+\\(\"([A-Za-z0-9.]+)\"");
    private static final Pattern LISTED = Pattern.compile("^\\| `-D([A-Za-z0-9.]+)=", Pattern.MULTILINE);

    @Test
    void everyKnobIsInTheReadme() throws IOException {
        Set<String> read = new TreeSet<>();
        try (Stream<Path> sources = Files.list(Path.of("src/test/java/org/testbed/gatling"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = READ.matcher(Files.readString(source));
                while (m.find()) {
                    read.add(m.group(1));
                }
            }
        }
        Set<String> listed = new TreeSet<>();
        Matcher m = LISTED.matcher(Files.readString(Path.of("README.md")));
        while (m.find()) {
            listed.add(m.group(1));
        }
        assertThat(read).as("knobs read by the simulations").isNotEmpty();
        assertThat(listed).as("knobs listed in README.md (rows starting | `-Dname=`)").isEqualTo(read);
    }
}
