package org.testbed.servlet.async;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request that fails inside the container after it went async (an exception out of the
 * dispatch) is answered as a failure, a 500 problem, on both containers. Jetty tells the failure
 * to the exchange's listener only; a listener that just completes makes it send 200 with no body.
 */
class AsyncExchangeFailureTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Goes async as the variants' servlet does, then fails before any answer. */
    private static final class FailingAfterStartAsync extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) {
            AsyncExchange.start(request, response, 1000);
            throw new IllegalStateException("failed after the request went async (thrown by the test)");
        }
    }

    @Test
    void jettyAnswers500Problem() throws Exception {
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder servlet = new ServletHolder(new FailingAfterStartAsync());
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, "/*");
        jetty.setHandler(context);
        jetty.start();
        try {
            assertFailureAnswered(connector.getLocalPort());
        } finally {
            jetty.stop();
        }
    }

    @Test
    void tomcatAnswers500Problem(@TempDir Path base) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createDirectories(base.resolve("tomcat")).toString());
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        tomcat.getConnector().setPort(0);
        Context context = tomcat.addContext("", null);
        Wrapper servlet = Tomcat.addServlet(context, "failing", new FailingAfterStartAsync());
        servlet.setAsyncSupported(true);
        context.addServletMappingDecoded("/*", "failing");
        tomcat.start();
        try {
            assertFailureAnswered(tomcat.getConnector().getLocalPort());
        } finally {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    private static void assertFailureAnswered(int port) throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("status of a request that failed after going async").isEqualTo(500);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"status\":500");
    }
}
