package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run resumed twice counts every attempt's time, not only the last one's. */
class RunAttemptsTest {
    @TempDir
    Path out;

    @Test
    void eachAttemptAddsItsTimeToThoseBefore() throws Exception {
        Files.createDirectories(out.resolve("raw"));
        Instant first = Instant.parse("2026-12-02T20:00:00Z");
        assertThat(RunAttempts.spentUntil(out, first)).as("a folder that notes no attempt").isEmpty();

        RunAttempts.begin(out, first, Duration.ZERO);
        Duration spent = RunAttempts.spentUntil(out, first.plusSeconds(420)).orElseThrow();
        assertThat(spent).isEqualTo(Duration.ofMinutes(7));

        Instant second = first.plusSeconds(600); // resumed three minutes after the stop: the gap is not counted
        RunAttempts.begin(out, second, spent);
        assertThat(RunAttempts.spentUntil(out, second.plusSeconds(90))).contains(Duration.ofSeconds(510));
        assertThat(RunAttempts.spentUntil(out, second.minusSeconds(5))).as("nothing measured yet").contains(spent);

        Files.writeString(out.resolve(RunAttempts.FILE), "2026-12-02T21:", StandardOpenOption.APPEND); // torn by kill -9
        assertThat(RunAttempts.spentUntil(out, second.plusSeconds(90))).contains(Duration.ofSeconds(510));
    }
}
