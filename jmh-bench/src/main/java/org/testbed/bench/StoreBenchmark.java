package org.testbed.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.scenario.Payloads;
import org.testbed.store.MemcachedItemStore;
import org.testbed.store.Versioned;
import org.testbed.store.WriteResult;

/**
 * The Memcached store every variant uses, against real {@code memcached} processes on loopback:
 * what one store operation costs a caller, sync ({@code get}, {@code replace}, {@code cas}: the
 * calling thread blocks until spymemcached's I/O thread has the answer) against async
 * ({@code getAsync}, ...: a {@code CompletableFuture} completed on the store's callback pool, joined
 * here so the two are comparable one operation at a time).
 *
 * <ul>
 *   <li>{@code *Sync} vs {@code *Async}: the async path pays one more thread hand-off (I/O thread →
 *       callback pool → caller) per operation; what it buys a server is that no thread waits.</li>
 *   <li>{@code getAsyncPipelined}: {@value #PIPELINE} gets in flight at once from one thread, the
 *       way an event loop issues them; per operation, it shows how much of a round trip is waiting
 *       that async I/O can overlap.</li>
 *   <li>{@code set*} is the store's {@code replace} (the contract's update; create is {@code add},
 *       which would need fresh keys every time); {@code cas*} is the update with {@code If-Match},
 *       a compare-and-swap with the CAS the previous call returned.</li>
 *   <li>{@code nodes}: 1 or 3 memcached processes behind Ketama consistent hashing. One caller
 *       waits for one node at a time, so more nodes should cost only the hashing (an MD5 per key)
 *       and an extra connection; a difference beyond that is the client's doing.</li>
 *   <li>{@code replyCheck}: {@code on} is the store every variant runs, which checks each reply's
 *       opaque against the operation that reads it (one more callback object per operation, two
 *       field reads and a compare per reply, on the I/O thread); {@code off} is the same store
 *       without that check, as spymemcached leaves it. The difference is what the check costs an
 *       operation; {@code -prof gc} shows its bytes per operation.</li>
 * </ul>
 *
 * Every result is checked (a get must find the item, a write must be STORED), so a store that
 * answers wrongly fails the benchmark instead of looking fast. Each benchmark thread owns
 * {@value #KEYS_PER_THREAD} keys spread over the nodes, so {@code -t 4} measures four callers
 * without CAS conflicts between them. The memcached processes and the store are set up once per
 * trial ({@code MemcachedProcess.start()}: free loopback ports, 64 MB each).
 *
 * <p>Run alone: {@code ./testbed jmh StoreBenchmark}, or
 * {@code java -jar jmh-bench/target/benchmarks.jar StoreBenchmark -p nodes=3 -p payload=10240 -t 2}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class StoreBenchmark {
    static final int PIPELINE = 16;
    static final int KEYS_PER_THREAD = 64;
    private static final long TIMEOUT_MS = 1000;

    /** The memcached processes and one store over all of them, shared by every benchmark thread. */
    @State(Scope.Benchmark)
    public static class Cluster {
        @Param({"1", "3"})
        public int nodes;

        /** Payload bytes of each stored item (the value is the item's JSON, ~60 bytes more). */
        @Param({"100"})
        public int payload;

        /** Whether the store checks each reply's opaque (every variant's store does). */
        @Param({"on", "off"})
        public String replyCheck;

        final List<MemcachedProcess> memcached = new ArrayList<>();
        MemcachedItemStore store;

        @Setup(Level.Trial)
        public void start() {
            for (int i = 0; i < nodes; i++) {
                memcached.add(MemcachedProcess.start());
            }
            String servers = memcached.stream().map(MemcachedProcess::address).collect(Collectors.joining(","));
            store = switch (replyCheck) {
                case "on" -> MemcachedItemStore.connect(servers, TIMEOUT_MS);
                case "off" -> MemcachedItemStore.connectWithoutReplyCheck(servers, TIMEOUT_MS);
                default -> throw new IllegalArgumentException("replyCheck is on or off, not " + replyCheck);
            };
            if (!store.awaitConnected(Duration.ofSeconds(10))) {
                throw new IllegalStateException("the store did not connect to " + servers + " within 10 s");
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            try {
                if (store != null) {
                    store.close();
                }
            } finally {
                memcached.forEach(MemcachedProcess::close);
            }
        }
    }

    /** This thread's keys, their values, and the CAS each key was last written with. */
    @State(Scope.Thread)
    public static class Keys {
        final String[] ids = new String[KEYS_PER_THREAD];
        final long[] cas = new long[KEYS_PER_THREAD];
        /** Each key's item JSON, written back unchanged by set and cas (the size stays {@code payload}). */
        final byte[][] values = new byte[KEYS_PER_THREAD][];
        private int next;

        @Setup(Level.Trial)
        public void create(Cluster cluster, ThreadParams thread) {
            SplittableRandom random = new SplittableRandom(thread.getThreadIndex());
            for (int i = 0; i < KEYS_PER_THREAD; i++) {
                ids[i] = "jmh.t" + thread.getThreadIndex() + ".k" + i;
                values[i] = ItemCodec.encode(new Item(ids[i], "jmh", Payloads.payload(cluster.payload, random)));
                cas[i] = stored(cluster.store.add(ids[i], values[i]), "add");
            }
        }

        /** The index of the next key, round-robin over this thread's keys (and so over the nodes). */
        int next() {
            int i = next;
            next = (i + 1) % KEYS_PER_THREAD;
            return i;
        }
    }

    @Benchmark
    public Versioned getSync(Cluster cluster, Keys keys) {
        return found(cluster.store.get(keys.ids[keys.next()]));
    }

    @Benchmark
    public Versioned getAsync(Cluster cluster, Keys keys) {
        return found(cluster.store.getAsync(keys.ids[keys.next()]).join());
    }

    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    @SuppressWarnings("unchecked")
    public Versioned getAsyncPipelined(Cluster cluster, Keys keys) {
        CompletableFuture<Versioned>[] inFlight = new CompletableFuture[PIPELINE];
        for (int i = 0; i < PIPELINE; i++) {
            inFlight[i] = cluster.store.getAsync(keys.ids[keys.next()]);
        }
        Versioned last = null;
        for (CompletableFuture<Versioned> future : inFlight) {
            last = found(future.join());
        }
        return last;
    }

    @Benchmark
    public long setSync(Cluster cluster, Keys keys) {
        int i = keys.next();
        return stored(cluster.store.replace(keys.ids[i], keys.values[i]), "replace");
    }

    @Benchmark
    public long setAsync(Cluster cluster, Keys keys) {
        int i = keys.next();
        return stored(cluster.store.replaceAsync(keys.ids[i], keys.values[i]).join(), "replace");
    }

    @Benchmark
    public long casSync(Cluster cluster, Keys keys) {
        int i = keys.next();
        return keys.cas[i] = stored(cluster.store.cas(keys.ids[i], keys.cas[i], keys.values[i]), "cas");
    }

    @Benchmark
    public long casAsync(Cluster cluster, Keys keys) {
        int i = keys.next();
        return keys.cas[i] = stored(cluster.store.casAsync(keys.ids[i], keys.cas[i], keys.values[i]).join(), "cas");
    }

    private static Versioned found(Versioned value) {
        if (value == null) {
            throw new IllegalStateException("get found no item although every key was created in setup");
        }
        return value;
    }

    private static long stored(WriteResult result, String operation) {
        if (!result.isStored()) {
            throw new IllegalStateException(operation + " answered " + result.outcome() + ", expected STORED");
        }
        return result.cas();
    }

    /** Run alone: every store benchmark, both node counts. */
    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder().include(StoreBenchmark.class.getSimpleName()).build()).run();
    }
}
