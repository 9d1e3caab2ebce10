package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testbed.item.ItemCodec;
import org.testbed.item.ItemId;

class ReadHeavyMixTest {
    private static final KeySpace KEYS = new KeySpace("run1", "i0");

    private static String id(RequestSpec spec) {
        return spec.path().substring(Requests.ITEMS.length());
    }

    @ParameterizedTest
    @CsvSource({"80:10:5:5", "50:20:15:15", "100:0:0:0", "0:0:50:50", "90:0:5:5"})
    void ratiosHoldWithinHalfAPercentOver200kRequests(String weights) {
        Mix mix = Mix.parse(weights);
        RequestStream lane = new ReadHeavyMix(KEYS, mix, 1000, 100, 11).stream(0);
        int n = 200_000;
        Map<HttpMethod, Integer> counts = new EnumMap<>(HttpMethod.class);
        for (int i = 0; i < n; i++) {
            RequestSpec spec = lane.next();
            counts.merge(spec.method(), 1, Integer::sum);
            lane.completed(spec, true);
        }
        for (HttpMethod method : HttpMethod.values()) {
            assertThat(counts.getOrDefault(method, 0) / (double) n).as("%s share", method)
                    .isCloseTo(mix.share(method), within(0.005));
        }
    }

    @Test
    void deletesOnlyTargetKeysTheLaneCreatedAndTheStoreStaysTheSameSize() {
        ReadHeavyMix workload = new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 500, 100, 3);
        RequestStream lane = workload.stream(7);
        Set<String> live = new LinkedHashSet<>();
        int maxLive = 0;
        for (int i = 0; i < 100_000; i++) {
            RequestSpec spec = lane.next();
            String id = id(spec);
            assertThat(ItemId.isValid(id)).isTrue();
            switch (spec.method()) {
                case GET, POST -> assertThat(id).startsWith("pre.100.");
                case PUT -> {
                    assertThat(id).startsWith("run1.i0.7.c");
                    assertThat(live.add(id)).as("created twice: %s", id).isTrue();
                }
                case DELETE -> {
                    assertThat(live.remove(id)).as("deleting %s, never created or already gone", id).isTrue();
                }
            }
            maxLive = Math.max(maxLive, live.size());
            lane.completed(spec, true);
        }
        assertThat(maxLive).isLessThanOrEqualTo(ReadHeavyMix.DEFAULT_CHURN_CAP + 1);
    }

    @Test
    void preloadedKeysAreCoveredAndUpdatesCarryExactPayloads() {
        ReadHeavyMix workload = new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 50, 1024, 3);
        List<RequestSpec> preload = workload.preload();
        assertThat(preload).hasSize(50).allSatisfy(spec -> {
            assertThat(spec.method()).isEqualTo(HttpMethod.PUT);
            assertThat(ItemCodec.decode(id(spec), spec.body()).payload()).hasSize(1024);
        });
        Set<String> readKeys = new HashSet<>();
        RequestStream lane = workload.stream(0);
        for (int i = 0; i < 5000; i++) {
            RequestSpec spec = lane.next();
            if (spec.method() == HttpMethod.GET) {
                readKeys.add(id(spec));
            }
            if (spec.hasBody()) {
                assertThat(ItemCodec.decode(id(spec), spec.body()).payload()).hasSize(1024);
            }
            lane.completed(spec, true);
        }
        assertThat(readKeys).containsExactlyInAnyOrderElementsOf(preload.stream().map(ReadHeavyMixTest::id).toList());
    }

    @Test
    void aFailedCreateIsNeverDeleted() {
        RequestStream lane = new ReadHeavyMix(KEYS, new Mix(0, 0, 50, 50), 10, 10, 5).stream(0);
        Set<String> failed = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            RequestSpec spec = lane.next();
            if (spec.method() == HttpMethod.DELETE) {
                assertThat(failed).doesNotContain(id(spec));
            }
            boolean ok = spec.method() != HttpMethod.PUT || i % 3 != 0;
            if (!ok) {
                failed.add(id(spec));
            }
            lane.completed(spec, ok);
        }
    }

    @Test
    void sameSeedSameRequestsAndLanesOrInjectorsNeverShareChurnKeys() {
        List<RequestSpec> a = take(new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 100, 100, 1).stream(2), 5000);
        List<RequestSpec> b = take(new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 100, 100, 1).stream(2), 5000);
        assertThat(a).isEqualTo(b);
        assertThat(take(new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 100, 100, 2).stream(2), 5000)).isNotEqualTo(a);

        Set<String> created = new HashSet<>();
        int puts = 0;
        for (String injector : new String[] {"i0", "i1", "i2"}) {
            ReadHeavyMix workload = new ReadHeavyMix(new KeySpace("run1", injector), Mix.READ_HEAVY, 100, 100, 1);
            for (long laneId = 0; laneId < 40; laneId++) {
                for (RequestSpec spec : take(workload.stream(laneId), 2000)) {
                    if (spec.method() == HttpMethod.PUT) {
                        created.add(spec.path());
                        puts++;
                    }
                }
            }
        }
        assertThat(created).hasSize(puts);
    }

    @Test
    void deleteLagKeysAKeyAliveForThatManyRequests() {
        RequestStream lane = new ReadHeavyMix(KEYS, new Mix(80, 0, 10, 10), 10, 10, 5, 40, 25).stream(0);
        java.util.Map<String, Integer> createdAt = new java.util.HashMap<>();
        for (int i = 0; i < 50_000; i++) {
            RequestSpec spec = lane.next();
            if (spec.method() == HttpMethod.PUT) {
                createdAt.put(id(spec), i);
            } else if (spec.method() == HttpMethod.DELETE) {
                assertThat(i - createdAt.remove(id(spec))).isGreaterThanOrEqualTo(25);
            }
            lane.completed(spec, true);
        }
    }

    private static List<RequestSpec> take(RequestStream stream, int n) {
        List<RequestSpec> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            RequestSpec spec = stream.next();
            out.add(spec);
            stream.completed(spec, true);
        }
        return out;
    }
}
