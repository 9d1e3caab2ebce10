package org.testbed.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.testbed.scenario.CrudJourney;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Mix;
import org.testbed.scenario.Payloads;
import org.testbed.scenario.ReadHeavyMix;
import org.testbed.scenario.RequestSpec;
import org.testbed.scenario.RequestStream;
import org.testbed.scenario.Requests;

/**
 * What the load tools spend per request on the shared scenario library, so that a load run is
 * known to measure the server and not its own generator. Every driver (Gatling, the runner, the
 * wrk script's source) makes each request with these calls and checks each answer with
 * {@link RequestSpec#failure}; the budget is the server's time per request, tens of microseconds
 * (see {@code ServerBenchmark}) shared by many users on the same injector cores, so anything here
 * above a microsecond or two would be worth a look.
 *
 * <ul>
 *   <li>{@code payload}, {@code body}: one payload of the size under test, and the request body.</li>
 *   <li>{@code key}: one journey key ({@code RUN.INJECTOR.LANE.jSEQ}).</li>
 *   <li>{@code journeyNext}, {@code mixNext}: the next request of a lane, averaged over the lane's
 *       cycle (a journey makes two payloads and six requests every sixth call).</li>
 *   <li>{@code checkItem}: the read-your-writes check of a GET response (status, ETag, body).</li>
 * </ul>
 *
 * Run alone: {@code ./testbed jmh ScenarioBenchmark}, or with allocation rates:
 * {@code java -jar jmh-bench/target/benchmarks.jar ScenarioBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ScenarioBenchmark {
    static final KeySpace KEYS = new KeySpace("r20250101T120000-jmh0", "inj0");

    /** The generators at one payload size; each benchmark thread would own its lanes in a driver too. */
    @State(Scope.Thread)
    public static class Generators {
        @Param({"100", "1024", "10240"})
        public int payload;

        SplittableRandom random;
        String payloadText;
        RequestStream journey;
        RequestStream mix;
        RequestSpec read;
        byte[] readBody;

        @Setup
        public void setUp() {
            random = new SplittableRandom(42);
            payloadText = Payloads.payload(payload, random);
            journey = new CrudJourney(KEYS, payload, 42).stream(0);
            mix = new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 1000, payload, 42).stream(0);
            Item item = new Item(KEYS.key(0, 'j', 0), "user-0-0", payloadText);
            read = Requests.read("read", item);
            readBody = ItemCodec.encode(item);
        }
    }

    /** A key sequence: keys do not depend on the payload size, so this runs once. */
    @State(Scope.Thread)
    public static class Sequence {
        long seq;
    }

    /** The response headers a variant sends with an item: only ETag is asked for. */
    private static String header(String name) {
        return "ETag".equalsIgnoreCase(name) ? "\"1a2b3c\"" : null;
    }

    @Benchmark
    public String payload(Generators g) {
        return Payloads.payload(g.payload, g.random);
    }

    @Benchmark
    public byte[] body(Generators g) {
        return Payloads.body("user-17-12345", g.payloadText);
    }

    @Benchmark
    public String key(Sequence s) {
        return KEYS.key(17, 'j', s.seq++);
    }

    @Benchmark
    public RequestSpec journeyNext(Generators g) {
        RequestSpec spec = g.journey.next();
        g.journey.completed(spec, true);
        return spec;
    }

    @Benchmark
    public RequestSpec mixNext(Generators g) {
        RequestSpec spec = g.mix.next();
        g.mix.completed(spec, true);
        return spec;
    }

    @Benchmark
    public String checkItem(Generators g) {
        String failure = g.read.failure(200, ScenarioBenchmark::header, g.readBody);
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
        return failure;
    }

    /** Run alone: {@code java -cp jmh-bench/target/benchmarks.jar org.testbed.bench.ScenarioBenchmark}. */
    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(ScenarioBenchmark.class.getSimpleName()).build()).run();
    }
}
