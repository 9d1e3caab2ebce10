package org.testbed.runner.host;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.testbed.runfolder.environment.RoundTrips;
import org.testbed.runner.env.Environment;
import org.testbed.scenario.LoopbackTls;

/**
 * The network between the load machine and the server's: HTTP round trips to the health endpoint
 * on one kept-alive connection, and the MTU of the interface each side sends on. Recorded so that a
 * compare of two server machines shows when the network, not the server, differs.
 */
final class NetworkPath {
    /** Round trips timed, after one that opens the connection. */
    static final int PINGS = 20;

    private NetworkPath() {
    }

    /** Milliseconds of each round trip of {@code GET /testbed/health}, sorted. */
    static List<Double> pingHealth(URI base) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).sslContext(LoopbackTls.trustingAnyCertificate()).build();
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/testbed/health")).timeout(Duration.ofSeconds(5)).GET().build();
        client.send(request, HttpResponse.BodyHandlers.discarding());
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < PINGS; i++) {
            long t0 = System.nanoTime();
            client.send(request, HttpResponse.BodyHandlers.discarding());
            millis.add((System.nanoTime() - t0) / 1e6);
        }
        Collections.sort(millis);
        return millis;
    }

    /** The round trips in environment.json's terms: min, median, max in ms, and how they were taken. */
    static RoundTrips describe(List<Double> millis) {
        return new RoundTrips(PINGS + " sequential GET /testbed/health on one kept-alive HTTP/1.1 connection",
                round(millis.get(0)), round(millis.get(millis.size() / 2)), round(millis.get(millis.size() - 1)));
    }

    /** {@code DEV mtu N} of the interface this machine sends to {@code address} on, or "unknown". */
    static String localInterface(String address) {
        String route = Environment.command("ip", "route", "get", address);
        String[] words = route.strip().split("\\s+");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals("dev")) {
                String dev = words[i + 1];
                try {
                    String mtu = Files.readString(Path.of("/sys/class/net", dev, "mtu"), StandardCharsets.UTF_8).strip();
                    return dev + " mtu " + mtu;
                } catch (IOException | RuntimeException e) {
                    return dev + " mtu unknown";
                }
            }
        }
        return "unknown (no 'ip route get " + address + "')";
    }

    private static double round(double ms) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.3f", ms));
    }
}
