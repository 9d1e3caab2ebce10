package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.testbed.item.ItemId;

class CrudJourneyTest {
    private static final KeySpace KEYS = new KeySpace("run1", "i0");

    private static List<RequestSpec> take(RequestStream stream, int n) {
        List<RequestSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RequestSpec spec = stream.next();
            out.add(spec);
            stream.completed(spec, true);
        }
        return out;
    }

    @Test
    void oneJourneyIsCreateReadUpdateReadDeleteRead() {
        List<RequestSpec> steps = new CrudJourney(KEYS, 100, 1).journey(3, 0);
        assertThat(steps).extracting(RequestSpec::name).containsExactlyElementsOf(CrudJourney.STEPS);
        assertThat(steps).extracting(RequestSpec::method).containsExactly(
                HttpMethod.PUT, HttpMethod.GET, HttpMethod.POST, HttpMethod.GET, HttpMethod.DELETE, HttpMethod.GET);
        assertThat(steps).extracting(RequestSpec::expectedStatus).containsExactly(201, 200, 200, 200, 204, 404);
        assertThat(steps).extracting(RequestSpec::path).containsOnly(steps.get(0).path());
        String id = steps.get(0).path().substring(Requests.ITEMS.length());
        assertThat(ItemId.isValid(id)).isTrue();
        assertThat(steps.get(1).captureEtag()).isTrue();
        assertThat(steps.get(2).sendIfMatch()).isTrue();

        // read-your-writes: the second read expects exactly what the update sent.
        Item updated = ItemCodec.decode(id, steps.get(2).body());
        assertThat(steps.get(3).checks()).contains(new Check.ItemIs(updated));
        Item created = ItemCodec.decode(id, steps.get(0).body());
        assertThat(steps.get(1).checks()).contains(new Check.ItemIs(created));
        assertThat(created.payload()).hasSize(100).isNotEqualTo(updated.payload());
        assertThat(updated.name()).isNotEqualTo(created.name());
    }

    @Test
    void sameSeedSameRequestsOtherSeedOtherPayloads() {
        List<RequestSpec> a = take(new CrudJourney(KEYS, 1024, 9).stream(5), 60);
        List<RequestSpec> b = take(new CrudJourney(KEYS, 1024, 9).stream(5), 60);
        List<RequestSpec> c = take(new CrudJourney(KEYS, 1024, 10).stream(5), 60);
        assertThat(a).isEqualTo(b);
        assertThat(a).extracting(RequestSpec::path).isEqualTo(c.stream().map(RequestSpec::path).toList());
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void lanesAndInjectorsUseDisjointKeys() {
        Set<String> all = new HashSet<>();
        int journeys = 0;
        for (String injector : new String[] {"i0", "i1"}) {
            CrudJourney journey = new CrudJourney(new KeySpace("run1", injector), 10, 1);
            for (long lane = 0; lane < 50; lane++) {
                for (RequestSpec spec : take(journey.stream(lane), 6 * 20)) {
                    if (spec.name().equals(CrudJourney.CREATE)) {
                        assertThat(all.add(spec.path())).as("fresh key %s", spec.path()).isTrue();
                        journeys++;
                    }
                }
            }
        }
        assertThat(journeys).isEqualTo(2 * 50 * 20);
    }

    @Test
    void failedReadOrUpdateCleansUpFailedCreateOrDeleteStartsOver() {
        RequestStream lane = new CrudJourney(KEYS, 10, 1).stream(0);
        RequestSpec create = lane.next();
        lane.completed(create, true);
        RequestSpec read = lane.next();
        lane.completed(read, false);
        RequestSpec next = lane.next();
        assertThat(next.name()).isEqualTo(CrudJourney.DELETE);
        assertThat(next.path()).isEqualTo(create.path());
        lane.completed(next, true);
        lane.completed(lane.next(), true); // read-deleted

        RequestSpec create2 = lane.next();
        assertThat(create2.name()).isEqualTo(CrudJourney.CREATE);
        assertThat(create2.path()).isNotEqualTo(create.path());
        lane.completed(create2, false);
        RequestSpec create3 = lane.next();
        assertThat(create3.name()).isEqualTo(CrudJourney.CREATE);
        assertThat(create3.path()).isNotEqualTo(create2.path());
    }

    @ParameterizedPayloads
    void payloadSizesAreExact(int size) {
        for (RequestSpec spec : new CrudJourney(KEYS, size, 2).journey(0, 3)) {
            if (spec.hasBody()) {
                String id = spec.path().substring(Requests.ITEMS.length());
                assertThat(ItemCodec.decode(id, spec.body()).payload()).hasSize(size);
            }
        }
    }
}
