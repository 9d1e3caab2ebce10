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
import org.testbed.item.ItemId;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Payloads;

/**
 * The item codec every variant runs on every item request, at the payload sizes the studies use
 * (100 B, 1 KiB, 10 KiB). These are the CPU costs the server pays on top of its framework:
 *
 * <ul>
 *   <li>{@code encode}: item → the JSON bytes stored in Memcached and sent back (PUT, POST).</li>
 *   <li>{@code decode}: a request body → a validated item, as PUT and POST do: strict streaming
 *       parse, duplicate-member detection, name length in code points.</li>
 *   <li>{@code decodeStored}: the same bytes without any validation (what a client reading an
 *       item does); {@code decode − decodeStored} is what the contract's strictness costs.</li>
 *   <li>{@code validateId}: the path id check every item request starts with (no payload, so it
 *       runs once, not per size).</li>
 * </ul>
 *
 * The payloads are the load tools' own ({@link Payloads}: ASCII letters and digits, which need no
 * JSON escaping), so these numbers match what a load run makes the server do; text that needs
 * escaping would cost more to encode. A GET sends the stored bytes as they are and decodes nothing.
 *
 * <p>Several nanoseconds to microseconds per call: short iterations are plenty, and two forks show
 * whether a result depends on the JIT's mood in one JVM. Run alone:
 * {@code ./testbed jmh CodecBenchmark}, or
 * {@code java -jar jmh-bench/target/benchmarks.jar CodecBenchmark -prof gc} to see bytes allocated per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CodecBenchmark {

    /** One item at the payload size under test, as an Item, as a request body and as stored JSON. */
    @State(Scope.Benchmark)
    public static class Sized {
        @Param({"100", "1024", "10240"})
        public int payload;

        String id;
        Item item;
        byte[] requestBody;
        byte[] stored;

        @Setup
        public void setUp() {
            id = new KeySpace("r20250101T120000-jmh0", "inj0").key(17, 'j', 12345);
            item = new Item(id, "user-17-12345", Payloads.payload(payload, new SplittableRandom(42)));
            requestBody = Payloads.body(item.name(), item.payload());
            stored = ItemCodec.encode(item);
            if (!ItemCodec.decode(id, requestBody).equals(item) || !ItemCodec.decodeStored(stored).equals(item)) {
                throw new IllegalStateException("the codec does not round-trip the benchmark's item");
            }
        }
    }

    /** A realistic id: a journey key of the load scenarios, 38 characters. */
    @State(Scope.Benchmark)
    public static class Id {
        String id;

        @Setup
        public void setUp() {
            id = new KeySpace("r20250101T120000-jmh0", "inj0").key(17, 'j', 12345);
        }
    }

    @Benchmark
    public byte[] encode(Sized s) {
        return ItemCodec.encode(s.item);
    }

    @Benchmark
    public Item decode(Sized s) {
        return ItemCodec.decode(s.id, s.requestBody);
    }

    @Benchmark
    public Item decodeStored(Sized s) {
        return ItemCodec.decodeStored(s.stored);
    }

    @Benchmark
    public String validateId(Id id) {
        return ItemId.problemWith(id.id);
    }

    /** Run alone: {@code java -cp jmh-bench/target/benchmarks.jar org.testbed.bench.CodecBenchmark}. */
    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(CodecBenchmark.class.getSimpleName()).build()).run();
    }
}
