package org.testbed.containers;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.config.TestbedConfig;
import org.testbed.containers.jetty.JettyServers;
import org.testbed.containers.tomcat.ProblemErrorReportValve;
import org.testbed.containers.tomcat.TomcatConnectors;
import org.testbed.store.ItemStore;

/**
 * The errors a container answers by itself are problem JSON with Content-Length, Server and Date,
 * never HTML or a stack trace: an exception escaping the application (500) and a request line the
 * parser rejects (400), on Tomcat with {@link ProblemErrorReportValve} and on Jetty with
 * {@link org.testbed.containers.jetty.ProblemErrorHandler}.
 */
class ContainerErrorPagesTest {
    private static final String FAILING = "GET /fail HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    private static final String GARBAGE = "GARBAGE / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n";

    private static TestbedConfig config() {
        return TestbedConfig.parse("test", new String[] {"--host", "127.0.0.1", "--port", "0"}, Map.of(), new Properties());
    }

    @Test
    void tomcatAnswersItsOwnErrorsAsProblems(@TempDir Path baseDir) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        Connector connector = TomcatConnectors.newConnector(config());
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        ((StandardHost) tomcat.getHost()).setErrorReportValveClass(ProblemErrorReportValve.class.getName());
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "failing", new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) {
                throw new IllegalStateException("boom: secret internals");
            }
        });
        context.addServletMappingDecoded("/*", "failing", false);
        tomcat.start();
        try {
            int port = connector.getLocalPort();
            assertProblem(exchange(port, FAILING), 500);
            assertProblem(exchange(port, GARBAGE), 400);
        } finally {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    @Test
    void jettyAnswersItsOwnErrorsAsProblems() throws Exception {
        AtomicBoolean storeClosed = new AtomicBoolean();
        Server server = JettyServers.newServer(config(), closeOnlyStore(storeClosed));
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                throw new IllegalStateException("boom: secret internals");
            }
        });
        server.start();
        try {
            int port = JettyServers.localPort(server);
            assertProblem(exchange(port, FAILING), 500);
            assertProblem(exchange(port, GARBAGE), 400);
        } finally {
            server.stop();
        }
        assertThat(storeClosed).as("the server closes its store when stopped").isTrue();
    }

    private static void assertProblem(String response, int status) {
        String head = response.substring(0, response.indexOf("\r\n\r\n"));
        String body = response.substring(head.length() + 4);
        assertThat(head).startsWith("HTTP/1.1 " + status);
        assertThat(head).containsIgnoringCase("\r\nContent-Type: application/problem+json")
                .containsIgnoringCase("\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n")
                .containsIgnoringCase("\r\nServer: testbed")
                .containsIgnoringCase("\r\nDate: ");
        assertThat(body).startsWith("{\"type\":\"about:blank\",").contains("\"status\":" + status)
                .doesNotContain("Exception").doesNotContain("secret").doesNotContainIgnoringCase("<html");
    }

    /** Sends raw bytes and reads until the server closes (every request here ends the connection). */
    private static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static ItemStore closeOnlyStore(AtomicBoolean closed) {
        return (ItemStore) Proxy.newProxyInstance(ItemStore.class.getClassLoader(), new Class<?>[] {ItemStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        closed.set(true);
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
