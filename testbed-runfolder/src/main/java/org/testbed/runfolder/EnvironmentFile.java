package org.testbed.runfolder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.testbed.runfolder.environment.EnvironmentRecord;

/**
 * A run folder's {@code environment.json}: its name, and the one JSON mapper that writes it and
 * every other JSON of a run folder (the report's and the flame graphs' data). What goes into it is
 * gathered by the runner into an {@link EnvironmentRecord}; this is how it is stored and read back.
 */
public final class EnvironmentFile {
    public static final String NAME = "environment.json";
    /** Indented: a person reads environment.json. Knows {@code Optional}, which the environment's records use. */
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new Jdk8Module());

    private EnvironmentFile() {
    }

    /** Writes the file through a move ({@link Csv#replace}): a run killed mid-write keeps the previous whole one. */
    public static void write(Path file, EnvironmentRecord environment) throws IOException {
        Csv.replace(file, JSON.writeValueAsString(environment));
    }

    /** The file's content, or an empty object when the run folder has none (an old or a partial run). */
    public static JsonNode read(Path file) throws IOException {
        return Files.isRegularFile(file) ? JSON.readTree(file.toFile()) : JSON.createObjectNode();
    }

    /**
     * The file as its records, or empty when the run folder has none. Keys it does not know are
     * ignored, so that an older run folder or a Gatling run's (which records less) still reads: an
     * optional part it lacks is an empty {@code Optional}, any other key it lacks is Java's default
     * (null, 0, false).
     */
    public static Optional<EnvironmentRecord> readRecord(Path file) throws IOException {
        return Files.isRegularFile(file) ? Optional.of(JSON.readValue(file.toFile(), EnvironmentRecord.class)) : Optional.empty();
    }
}
