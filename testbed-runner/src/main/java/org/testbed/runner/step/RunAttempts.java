package org.testbed.runner.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.runfolder.Csv;

/**
 * The attempts at one run folder ({@code raw/attempts.csv}): when each started and how long the
 * attempts before it had measured, so that a run resumed twice still counts the first attempt's time
 * against its precision budget (environment.json's {@code started_at} is the last attempt's).
 */
final class RunAttempts {
    static final String FILE = "raw/attempts.csv";
    private static final List<String> COLUMNS = List.of("started_at", "measured_before_s");

    private RunAttempts() {
    }

    /** Notes an attempt starting at {@code start}, after attempts that measured for {@code before}. */
    static void begin(Path out, Instant start, Duration before) throws IOException {
        Path file = out.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            Csv.create(file, COLUMNS);
        }
        Csv.append(file, List.of(start.toString(), Long.toString(before.toSeconds())));
    }

    /**
     * The time the attempts so far measured, the last one until {@code lastWrite}; empty when the
     * folder notes no attempt (written before attempts were noted).
     */
    static Optional<Duration> spentUntil(Path out, Instant lastWrite) throws IOException {
        Path file = out.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        List<Map<String, String>> lines = Csv.records(Csv.withoutTornLine(Files.readString(file, StandardCharsets.UTF_8)),
                file.toString(), COLUMNS);
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> last = lines.get(lines.size() - 1);
        try {
            Instant started = Instant.parse(last.get("started_at"));
            Duration before = Duration.ofSeconds(Long.parseLong(last.get("measured_before_s")));
            return Optional.of(before.plus(lastWrite.isAfter(started) ? Duration.between(started, lastWrite) : Duration.ZERO));
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IOException(file + ": its last line is not an attempt's start and time: " + last.values());
        }
    }
}
