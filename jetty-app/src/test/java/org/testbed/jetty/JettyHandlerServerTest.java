package org.testbed.jetty;

import java.net.URI;
import java.util.Map;
import java.util.Properties;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testbed.config.TestbedConfig;
import org.testbed.junit.EndpointSmoke;
import org.testbed.junit.MemcachedExtension;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.server.ServerStartup;
import org.testbed.containers.jetty.JettyServers;

/** jetty-handler started in-process from {@code newServer} on 127.0.0.1, port 0, against a real memcached. */
@Tag("process")
@ExtendWith(MemcachedExtension.class)
class JettyHandlerServerTest {
    private static final int MAX_BODY = 4096;

    @Test
    void answersEveryKindOfRequest(MemcachedProcess memcached) throws Exception {
        TestbedConfig config = TestbedConfig.parse("test", new String[] {"--host", "127.0.0.1", "--port", "0",
                "--mode", "async", "--max-body", Integer.toString(MAX_BODY), "--memcached-servers", memcached.address()},
                Map.of(), new Properties());
        Server server = JettyHandlerServer.newServer(config, ServerStartup.connectStore(config));
        server.start();
        try {
            EndpointSmoke.check(URI.create("http://127.0.0.1:" + JettyServers.localPort(server)),
                    JettyHandlerServer.VARIANT, MAX_BODY);
        } finally {
            server.stop();
        }
    }
}
