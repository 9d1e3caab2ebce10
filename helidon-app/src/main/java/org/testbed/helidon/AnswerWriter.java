package org.testbed.helidon;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.testbed.config.TestbedConfig;
import org.testbed.http.HttpDate;
import org.testbed.http.Response;
import org.testbed.server.ServerTuning;

/**
 * Copies a shared {@link Response} onto Helidon's response: status, body with its
 * {@code Content-Length}, the contract's headers, {@code Server: testbed} and a {@code Date}
 * (Helidon sets none), and, with {@code TESTBED_GZIP}, gzip by the contract's rules.
 *
 * <p>Compression is done here with the JDK's deflater, not by Helidon's content encoding: that
 * compresses every answer to a client that accepts it, whatever its size or media type, and would
 * also pick deflate. Here it is gzip only, for bodies of at least
 * {@link TestbedConfig#GZIP_MIN_BYTES} of the contract's media types without a strong ETag, with
 * {@code Vary: Accept-Encoding}, and the compressed body still has a {@code Content-Length}.
 */
final class AnswerWriter {
    private static final HeaderName SERVER = HeaderNames.SERVER;
    private static final HeaderName DATE = HeaderNames.DATE;

    private final boolean gzip;

    AnswerWriter(boolean gzip) {
        this.gzip = gzip;
    }

    void write(ServerRequest request, ServerResponse response, Response answer, boolean close) {
        response.status(Status.create(answer.status()));
        response.header(SERVER, ServerTuning.SERVER_HEADER);
        response.header(DATE, HttpDate.now());
        if (answer.contentType() != null) {
            response.header(HeaderNames.CONTENT_TYPE, answer.contentType());
        }
        answer.forEachHeader(response::header);
        if (close) {
            response.header(HeaderValues.CONNECTION_CLOSE);
        }
        byte[] body = answer.body();
        if (gzip && compressible(answer)) {
            response.header(HeaderNames.VARY, "Accept-Encoding");
            if (acceptsGzip(request)) {
                response.header(HeaderNames.CONTENT_ENCODING, "gzip");
                body = gzipped(body);
            }
        }
        if (body.length == 0) {
            response.send();
        } else {
            response.send(body);
        }
    }

    /** Large enough, of a compressed media type, and no strong ETag naming these exact bytes. */
    private static boolean compressible(Response answer) {
        if (answer.body().length < TestbedConfig.GZIP_MIN_BYTES || answer.contentType() == null) {
            return false;
        }
        if (answer.etag() != null && !answer.etag().startsWith("W/")) {
            return false;
        }
        String type = answer.contentType();
        int semicolon = type.indexOf(';');
        String mediaType = (semicolon < 0 ? type : type.substring(0, semicolon)).trim();
        return ServerTuning.GZIP_MEDIA_TYPES.contains(mediaType);
    }

    /** Whether an {@code Accept-Encoding} names gzip with a quality above zero. */
    static boolean acceptsGzip(ServerRequest request) {
        for (String header : request.headers().all(HeaderNames.ACCEPT_ENCODING, java.util.List::of)) {
            for (String coding : header.split(",")) {
                String[] parts = coding.split(";");
                String name = parts[0].trim().toLowerCase(Locale.ROOT);
                if (name.equals("gzip") && quality(parts) > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static double quality(String[] parameters) {
        for (int i = 1; i < parameters.length; i++) {
            String parameter = parameters[i].trim();
            if (parameter.startsWith("q=") || parameter.startsWith("Q=")) {
                try {
                    return Double.parseDouble(parameter.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }

    private static byte[] gzipped(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 2 + 64);
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
        return out.toByteArray();
    }
}
