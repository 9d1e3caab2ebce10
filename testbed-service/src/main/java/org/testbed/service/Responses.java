package org.testbed.service;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.testbed.http.MediaTypes;
import org.testbed.http.Response;

/** The fixed endpoints: plaintext and json (TechEmpower's rules), the delay's answer, health UP. */
public final class Responses {
    private static final JsonFactory JSON = new JsonFactory();
    private static final Response PLAINTEXT = Response.text("Hello, World!");
    private static final Response DELAY_DONE = Response.text("Hello World!");

    private Responses() {
    }

    /** {@code Hello, World!} as text/plain; TechEmpower allows a constant body for this test. */
    public static Response plaintext() {
        return PLAINTEXT;
    }

    /**
     * {@code {"message":"Hello, World!"}}, serialized anew on every request as TechEmpower's json
     * test requires (a cached body would measure nothing).
     */
    public static Response json() {
        ByteArrayBuilder out = new ByteArrayBuilder(32);
        try (JsonGenerator generator = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            generator.writeStartObject();
            generator.writeStringField("message", "Hello, World!");
            generator.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Response.of(200, MediaTypes.JSON, out.toByteArray());
    }

    /** What {@code /testbed/delay} answers once the delay is over. */
    public static Response delayDone() {
        return DELAY_DONE;
    }

    static Response up(String variant) {
        ByteArrayBuilder out = new ByteArrayBuilder(48);
        try (JsonGenerator generator = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            generator.writeStartObject();
            generator.writeStringField("status", "UP");
            generator.writeStringField("variant", variant);
            generator.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Response.of(200, MediaTypes.JSON, out.toByteArray());
    }
}
