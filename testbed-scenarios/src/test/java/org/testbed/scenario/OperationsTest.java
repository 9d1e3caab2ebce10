package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a step's requests are labelled: the mix by method, the journey by step, a single route by its name. */
class OperationsTest {
    private static final Workload.Settings SETTINGS = Workload.Settings.defaults(new KeySpace("t", "u"));

    @Test
    void theMixIsLabelledByTheMethodEachRequestWasSentWith() {
        Workload mix = Workload.of("mix", SETTINGS);
        Operations operations = Operations.of(mix);
        assertThat(operations.labels()).containsExactly("GET", "POST", "PUT", "DELETE");
        RequestStream lane = mix.stream(0);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            RequestSpec spec = lane.next();
            String label = operations.labels().get(operations.indexOf(spec));
            assertThat(label).as(spec.toString()).isEqualTo(spec.method().name());
            seen.add(label);
            lane.completed(spec, true);
        }
        assertThat(seen).containsExactlyInAnyOrder("GET", "POST", "PUT", "DELETE");
    }

    @Test
    void theJourneyIsLabelledByItsSteps() {
        CrudJourney journey = (CrudJourney) Workload.of("journey", SETTINGS);
        Operations operations = Operations.of(journey);
        assertThat(operations.labels()).containsExactly("create", "read", "update", "read-updated", "delete",
                "read-deleted");
        List<RequestSpec> specs = journey.journey(3, 2);
        for (int i = 0; i < specs.size(); i++) {
            assertThat(operations.indexOf(specs.get(i))).as(specs.get(i).toString()).isEqualTo(i);
        }
    }

    @Test
    void aSingleRouteIsOneOperationNamedAfterIt() {
        for (String name : List.of("plaintext", "json", "delay")) {
            Workload workload = Workload.of(name, SETTINGS);
            Operations operations = Operations.of(workload);
            assertThat(operations.labels()).containsExactly(name);
            assertThat(operations.indexOf(workload.stream(0).next())).isZero();
        }
    }

    @Test
    void noLabelHoldsWhatAnIntervalLogTagCannot() {
        for (String name : Workload.NAMES) {
            assertThat(Operations.of(Workload.of(name, SETTINGS)).labels()).allSatisfy(label ->
                    assertThat(label).isNotEmpty().doesNotContainAnyWhitespaces().doesNotContain(","));
        }
    }
}
