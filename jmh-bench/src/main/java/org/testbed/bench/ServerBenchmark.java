package org.testbed.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.scenario.Payloads;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.Requests;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;
import org.testbed.variant.VariantProcess;

/**
 * One variant's whole request path, as a client on the same machine sees it: one keep-alive
 * connection over loopback, one request at a time, so each number is the round trip of a single
 * request through the kernel's loopback, the server's connector, its routing, the shared service
 * code and (for {@code getItem}) a Memcached {@code gets}. With one client there is no queueing and
 * no contention: this is the floor under the latencies the load runs report, and the difference
 * between variants here is the per-request cost of their server model.
 *
 * <ul>
 *   <li>{@code plaintext} and {@code json}: the TechEmpower tests — the framework alone.</li>
 *   <li>{@code getItem}: {@code GET /testbed/items/{id}} of a 100-byte-payload item created in
 *       setup; minus {@code json}, roughly the cost of one Memcached round trip on that server's
 *       threading model (a hand-off to spymemcached's I/O thread and back).</li>
 * </ul>
 *
 * Both throughput (ops/ms = thousands of requests per second) and average time (ms/op) are
 * reported; with one client thread one is the inverse of the other, but a run with {@code -t 4}
 * (four connections) shows how far each server model scales before the two diverge.
 *
 * <p>Each trial starts the variant from its packaged jar as a real process (as
 * {@code ./testbed serve} does, on a JDK from {@code Jdks.javaFor(min_jdk)}), with its own
 * memcached, on 127.0.0.1 with a free port, and stops both at the end; {@code TESTBED_JAVA_OPTS}
 * (same name as for {@code ./testbed serve}) passes JVM options to the variant. The variant's JIT
 * warms up during the warm-up iterations, which is why they are longer here than elsewhere. A
 * missing jar is an error, never a skip: build everything first ({@code ./mvnw package -DskipTests}).
 * To see where a variant spends its time, {@code ./testbed jmh ServerBenchmark --profile-async}
 * also writes a flame graph of the server process per trial (see README.md).
 * The client's checks (status, body byte-for-byte) fail the benchmark on the first wrong answer.
 *
 * <p>The default {@code variant} list must match {@code variants.conf} (a unit test checks it);
 * choose some with {@code -p variant=vertx,jetty-handler}. Run alone:
 * <pre>
 *   ./testbed jmh ServerBenchmark -p variant=vertx,spring-tomcat
 *   java -jar jmh-bench/target/benchmarks.jar ServerBenchmark.plaintext -p variant=vertx -t 4
 * </pre>
 */
@BenchmarkMode({Mode.Throughput, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ServerBenchmark {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** GET reads an item of this payload size: the default of the load scenarios. */
    private static final int PAYLOAD = Payloads.DEFAULT_SIZE;

    /** One variant process and its memcached, for a whole trial. */
    @State(Scope.Benchmark)
    public static class Server {
        /** Every line of variants.conf, in its order (VariantListTest keeps the two equal). */
        @Param({"spring-tomcat", "spring-tomcat-virtual", "servlet-tomcat-sync", "servlet-tomcat-async",
                "servlet-tomcat-virtual", "servlet-jetty-sync", "servlet-jetty-async", "servlet-jetty-virtual",
                "jetty-handler", "vertx", "spring-webflux", "helidon-se"})
        public String variant;

        MemcachedProcess memcached;
        VariantProcess process;

        @Setup(Level.Trial)
        public void start(BenchmarkParams params) throws IOException {
            Path root = Repository.root();
            Variant chosen = VariantManifest.load(root.resolve(VariantManifest.FILE_NAME)).find(variant);
            Path java = Jdks.javaFor(chosen.minJdk())
                    .orElseThrow(() -> new IllegalStateException(variant + ": " + Jdks.missing(chosen.minJdk())));
            memcached = MemcachedProcess.start();
            List<String> args = List.of("--host", "127.0.0.1", "--port", "0",
                    "--memcached-servers", memcached.address());
            Path log = root.resolve("jmh-bench/target/variant-logs/" + variant + ".log");
            try {
                process = VariantProcess.start(chosen, root, java, javaOptions(root, params), args, log, START_TIMEOUT);
            } catch (IOException | RuntimeException e) {
                memcached.close();
                throw e;
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            try {
                if (process != null) {
                    if (!process.isAlive()) {
                        throw new IllegalStateException(variant + " died during the trial; see " + process.log());
                    }
                    process.close();
                }
            } finally {
                if (memcached != null) {
                    memcached.close();
                }
            }
        }

        /**
         * {@code TESTBED_JAVA_OPTS}, plus async-profiler as an agent when {@code TESTBED_JMH_SERVER_PROFILE}
         * names a directory ({@code ./testbed jmh --profile-async} sets it): the variant then writes a
         * CPU flame graph of the whole trial — start-up, warm-up and measurement — when it stops.
         */
        private List<String> javaOptions(Path root, BenchmarkParams params) {
            List<String> options = new ArrayList<>();
            String configured = System.getenv("TESTBED_JAVA_OPTS");
            if (configured != null && !configured.isBlank()) {
                options.addAll(List.of(configured.strip().split("\\s+")));
            }
            String profileDir = System.getenv("TESTBED_JMH_SERVER_PROFILE");
            if (profileDir != null && !profileDir.isBlank()) {
                Path library = AsyncProfilerLibrary.find(root);
                String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
                Path output = Path.of(profileDir).toAbsolutePath()
                        .resolve("server-" + variant + "-" + method + "-" + params.getMode().shortLabel() + ".html");
                options.add("-agentpath:" + library + "=start,event=cpu,file=" + output);
            }
            return options;
        }
    }

    /** One keep-alive connection per benchmark thread, and the requests it sends, encoded once. */
    @State(Scope.Thread)
    public static class Client {
        KeepAliveClient http;
        RequestSpec getItemSpec;
        byte[] getItem;
        byte[] getItemBody;
        byte[] plaintext;
        byte[] plaintextBody;
        byte[] json;
        byte[] jsonBody;

        @Setup(Level.Trial)
        public void connect(Server server, ThreadParams thread) {
            http = KeepAliveClient.connect(server.process.baseUri());
            // Each thread reads its own item, created here through the variant itself.
            String id = "jmh." + thread.getThreadIndex();
            Item item = new Item(id, "jmh-" + thread.getThreadIndex(),
                    Payloads.payload(PAYLOAD, new SplittableRandom(thread.getThreadIndex())));
            RequestSpec create = Requests.create("create", item);
            http.exchange(http.encode(create), create, null);

            getItemSpec = Requests.read("getItem", item);
            getItem = http.encode(getItemSpec);
            getItemBody = ItemCodec.encode(item);
            plaintext = http.encode(Requests.plaintext());
            plaintextBody = "Hello, World!".getBytes(StandardCharsets.UTF_8);
            json = http.encode(Requests.json());
            jsonBody = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.UTF_8);
        }

        @TearDown(Level.Trial)
        public void disconnect() {
            if (http != null) {
                http.close();
            }
        }
    }

    @Benchmark
    public int getItem(Client client) {
        return client.http.exchange(client.getItem, client.getItemSpec, client.getItemBody);
    }

    @Benchmark
    public int plaintext(Client client) {
        return client.http.exchange(client.plaintext, Requests.plaintext(), client.plaintextBody);
    }

    @Benchmark
    public int json(Client client) {
        return client.http.exchange(client.json, Requests.json(), client.jsonBody);
    }

    /** Run alone, on the variants given as arguments (default: vertx), e.g. {@code ... ServerBenchmark vertx jetty-handler}. */
    public static void main(String[] args) throws RunnerException {
        List<String> variants = new ArrayList<>(Arrays.asList(args));
        if (variants.isEmpty()) {
            variants.add("vertx");
        }
        Options options = new OptionsBuilder()
                .include(ServerBenchmark.class.getSimpleName())
                .param("variant", variants.toArray(String[]::new))
                .build();
        new Runner(options).run();
    }
}
