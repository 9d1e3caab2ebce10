package org.testbed.runfolder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run folder's {@code environment.json}: its name, and the one JSON mapper that writes it and
 * every other JSON of a run folder (the report's and the flame graphs' data). What goes into it is
 * gathered by the runner; this is how it is stored and read back.
 */
public final class EnvironmentFile {
    public static final String NAME = "environment.json";
    /** Indented: a person reads environment.json. */
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private EnvironmentFile() {
    }

    public static void write(Path file, JsonNode environment) throws IOException {
        Files.writeString(file, JSON.writeValueAsString(environment), StandardCharsets.UTF_8);
    }

    /** The file's content, or an empty object when the run folder has none (an old or a partial run). */
    public static JsonNode read(Path file) throws IOException {
        return Files.isRegularFile(file) ? JSON.readTree(file.toFile()) : JSON.createObjectNode();
    }
}
