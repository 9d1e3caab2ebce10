package org.testbed.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.catalina.connector.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.testbed.config.TestbedConfig;
import org.testbed.containers.jetty.JettyServers;
import org.testbed.containers.tomcat.TomcatConnectors;
import org.testbed.server.ServerTuning;

/**
 * {@code TESTBED_ACCEPT_QUEUE}: Tomcat and Jetty get the same listen backlog, and 0 leaves each its
 * own default (Tomcat's acceptCount 100; Jetty's 0, which the JDK turns into 50), so that a
 * comparison can be made with the servers as they ship.
 */
class AcceptQueueTest {

    private static TestbedConfig config(String acceptQueue) {
        Map<String, String> env = acceptQueue == null ? Map.of() : Map.of("TESTBED_ACCEPT_QUEUE", acceptQueue);
        return TestbedConfig.parse("t", new String[] {"--host", "127.0.0.1", "--port", "0"}, env, new Properties());
    }

    @Test
    void tomcatGetsTheSettingOrKeepsItsOwnDefault() {
        assertThat(TomcatConnectors.newConnector(config(null)).getProperty("acceptCount"))
                .isEqualTo(ServerTuning.ACCEPT_QUEUE);
        assertThat(TomcatConnectors.newConnector(config("64")).getProperty("acceptCount")).isEqualTo(64);
        Connector asShipped = TomcatConnectors.newConnector(config("0"));
        assertThat(asShipped.getProperty("acceptCount")).isEqualTo(new Connector().getProperty("acceptCount")).isEqualTo(100);
    }

    @Test
    void jettyGetsTheSettingOrKeepsItsOwnDefault() {
        assertThat(acceptQueueSize(JettyServers.newServer(config(null), null))).isEqualTo(ServerTuning.ACCEPT_QUEUE);
        assertThat(acceptQueueSize(JettyServers.newServer(config("64"), null))).isEqualTo(64);
        assertThat(acceptQueueSize(JettyServers.newServer(config("0"), null)))
                .isEqualTo(new ServerConnector(new Server()).getAcceptQueueSize());
    }

    /** The server is never started: its store (none here) is only closed once it stops. */
    private static int acceptQueueSize(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getAcceptQueueSize();
    }
}
