package org.testbed.containers.tomcat;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.testbed.http.MediaTypes;
import org.testbed.http.Problem;
import org.testbed.containers.ContainerErrors;

/**
 * Tomcat's error pages as problem JSON: every error Tomcat answers by itself (a request line or
 * URI it cannot parse, an encoded {@code /} it rejects, an exception escaping a servlet, a
 * {@code sendError}) gets an {@code application/problem+json} body with {@code Content-Length},
 * never Tomcat's HTML page and never a stack trace. Errors the application wrote itself pass
 * through untouched.
 *
 * <p>A 408 (a blocking body read timed out: Tomcat answers it by itself, whatever the application
 * then writes) also stops Tomcat from swallowing the rest of the body before closing: the client
 * stopped sending, so the swallow would only wait for another idle timeout with a worker thread.
 *
 * <p>Install it on the Host, in place of the default valve:
 * <pre>{@code
 * ((StandardHost) tomcat.getHost()).setErrorReportValveClass(ProblemErrorReportValve.class.getName());
 * }</pre>
 * (Spring Boot: from a {@code TomcatContextCustomizer}, {@code ((StandardHost) context.getParent())
 * .setErrorReportValveClass(...)}, or add an instance with {@code getPipeline().addValve(..)}.)
 */
public class ProblemErrorReportValve extends ErrorReportValve {
    private static final Log log = LogFactory.getLog(ProblemErrorReportValve.class);

    public ProblemErrorReportValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        super.invoke(request, response);
        // Here, not in report(): an error page (Spring Boot's) may have written the 408 already.
        if (response.getStatus() == 408) {
            // Also marks the connection to be closed once the response is written.
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // Same guards as Tomcat's own valve: only errors (sendError, or an exception turned into
        // a 500), only once, only when nothing was written and the connection can still take it.
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        // An exception from the application was logged with its stack trace by StandardWrapperValve.
        // Tomcat's parse errors carry their message and no throwable; a throwable is the application's.
        if (throwable == null && ContainerErrors.clientStatus(status) != status) {
            status = ContainerErrors.clientStatus(status);
            response.setStatus(status);
        }
        byte[] body = Problem.of(status, ContainerErrors.detail(status, response.getMessage(), throwable != null)).toJson();
        try {
            response.setContentType(MediaTypes.PROBLEM_JSON);
            response.setContentLength(body.length);
            try {
                OutputStream out = response.getOutputStream();
                out.write(body);
            } catch (IllegalStateException usingWriter) {
                // The application took the writer before failing: write the same bytes through it.
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                PrintWriter writer = response.getReporter();
                if (writer != null) {
                    writer.write(new String(body, StandardCharsets.UTF_8));
                }
            }
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response is committed after all: nothing more to say.
            log.debug("Could not write the problem body for status " + status, e);
        }
    }
}
