package org.testbed.helidon;

import io.helidon.common.buffers.BufferData;
import java.nio.charset.StandardCharsets;
import org.testbed.http.HttpDate;
import org.testbed.http.MediaTypes;
import org.testbed.http.Problem;
import org.testbed.server.ServerTuning;

/** A problem answer as raw HTTP/1.1 bytes, for a connection no HTTP parser of Helidon's took. */
final class RawProblem {
    private RawProblem() {
    }

    static BufferData of(int status, String detail) {
        Problem problem = Problem.of(status, detail);
        byte[] body = problem.toJson();
        String head = "HTTP/1.1 " + status + " " + problem.title() + "\r\n"
                + "Server: " + ServerTuning.SERVER_HEADER + "\r\n"
                + "Date: " + HttpDate.now() + "\r\n"
                + "Content-Type: " + MediaTypes.PROBLEM_JSON + "\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "Connection: close\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return BufferData.create(all);
    }
}
