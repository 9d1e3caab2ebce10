package org.testbed.http;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;

/**
 * An RFC 9457 problem body: {@code {"type":"about:blank","title":..,"status":..,"detail":..}}.
 * Every error of every variant is one of these, with media type {@code application/problem+json};
 * never a stack trace, never HTML.
 */
public record Problem(int status, String title, String detail) {

    public byte[] toJson() {
        StringBuilder json = new StringBuilder(96 + detail.length());
        json.append("{\"type\":\"about:blank\",\"title\":\"");
        json.append(JsonStringEncoder.getInstance().quoteAsString(title));
        json.append("\",\"status\":").append(status);
        json.append(",\"detail\":\"");
        json.append(JsonStringEncoder.getInstance().quoteAsString(detail));
        json.append("\"}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static Problem of(int status, String detail) {
        return new Problem(status, titleOf(status), detail);
    }

    /** The standard reason phrase, used as the problem title. */
    public static String titleOf(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 406 -> "Not Acceptable";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 411 -> "Length Required";
            case 412 -> "Precondition Failed";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 415 -> "Unsupported Media Type";
            case 417 -> "Expectation Failed";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> status >= 500 ? "Server Error" : "Client Error";
        };
    }
}
