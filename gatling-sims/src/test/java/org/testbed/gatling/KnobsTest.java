package org.testbed.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.LoadShape;
import org.testbed.scenario.Mix;
import org.testbed.scenario.Payloads;
import org.testbed.scenario.Workload;

/**
 * A knob given a value the simulations cannot run with is refused with one line naming the knob
 * as it was given, its value and what is allowed, for the knobs every simulation reads and for
 * each simulation's load shape, whose rules are the scenario library's.
 */
class KnobsTest {

    private static Knobs knobs(String... pairs) {
        Properties properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return new Knobs(properties);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "users     | 20    | Staircase      | -Dusers=20 must be at least -Dfrom (50)",
        "from      | 0     | Staircase      | -Dfrom=0 must be a whole number, at least 1",
        "step      | -5    | Staircase      | -Dstep=-5 must be a whole number, at least 1",
        "users     | 2000000 | Staircase    | -Dstep=50 must be at least 201, for at most 10000 levels from -Dfrom (50) to -Dusers (2000000)",
        "users     | many  | Staircase      | -Dusers=many must be a whole number",
        "duration  | 0     | Staircase      | -Dduration=0 must be longer than 0 s",
        "ramp      | -1    | Staircase      | -Dramp=-1 must be seconds from 0 to 2592000 (30 days)",
        "warmup    | 1e300 | Staircase      | -Dwarmup=1e300 must be seconds from 0 to 2592000 (30 days)",
        "users     | 0     | MaxThroughput  | -Dusers=0 must be a whole number, at least 1",
        "duration  | ten   | MaxThroughput  | -Dduration=ten must be a number",
        "users     | -1    | RealisticUsers | -Dusers=-1 must be a whole number, at least 1",
        "duration  | 0     | RealisticUsers | -Dduration=0 must be longer than 0 s",
        "thinkMinMs | 3000 | RealisticUsers | -DthinkMaxMs=2000 must be at least -DthinkMinMs (3000)",
        "thinkMaxMs | -1   | RealisticUsers | -DthinkMaxMs=-1 must be milliseconds from 0 to 2592000000 (30 days)",
        "rps       | 0     | ArrivalRate    | -Drps=0 must be a number above 0 (req/s)",
        "rps       | NaN   | ArrivalRate    | -Drps=NaN must be a number",
        "rps       | Infinity | ArrivalRate | -Drps=Infinity must be a number",
        "toRps     | 500   | SlaCapacity    | -DtoRps=500 must be at least -DfromRps (1000)",
        "stepRps   | 0     | SlaCapacity    | -DstepRps=0 must be a number above 0 (req/s)",
        "stepRps   | 0.001 | SlaCapacity    | -DstepRps=0.001 must be at least 1.9002, for at most 10000 levels from -DfromRps (1000) to -DtoRps (20000)",
        "slaP99Ms  | -5    | SlaCapacity    | -DslaP99Ms=-5 must be a number above 0 (ms)",
        "fromRps   | 0     | SlaCapacity    | -DfromRps=0 must be a number above 0 (req/s)",
    })
    void aBadShapeKnobSaysWhatIsAllowed(String knob, String value, String simulation, String message) {
        Function<Knobs, LoadShape> shape = switch (simulation) {
            case "Staircase" -> Staircase::fromKnobs;
            case "MaxThroughput" -> MaxThroughput::fromKnobs;
            case "RealisticUsers" -> RealisticUsers::fromKnobs;
            case "ArrivalRate" -> ArrivalRate::fromKnobs;
            case "SlaCapacity" -> SlaCapacity::fromKnobs;
            default -> throw new AssertionError(simulation);
        };
        assertThatThrownBy(() -> shape.apply(knobs(knob, value)))
                .isInstanceOf(Knobs.BadKnobException.class)
                .hasMessage(message);
    }

    @Test
    void theDefaultsAreAllowed() {
        assertThat(Staircase.fromKnobs(knobs()).users()).startsWith(50).endsWith(1100);
        assertThat(MaxThroughput.fromKnobs(knobs()).concurrency()).isEqualTo(96);
        assertThat(RealisticUsers.fromKnobs(knobs()).users()).isEqualTo(1000);
        assertThat(ArrivalRate.fromKnobs(knobs()).rps()).isEqualTo(5000);
        assertThat(SlaCapacity.fromKnobs(knobs()).rates()).hasSize(20);
        Knobs fractional = knobs("duration", "0.5", "ramp", "0", "stepRps", "1.9002");
        assertThat(Staircase.fromKnobs(fractional).level()).isEqualTo(Duration.ofMillis(500));
        assertThat(SlaCapacity.fromKnobs(fractional).rates()).hasSizeLessThanOrEqualTo(LoadShape.MAX_LEVELS);
    }

    @Test
    void theCommonKnobsSayWhatIsAllowed() {
        assertThatThrownBy(() -> knobs("target", "localhost:8080").url("target", "http://127.0.0.1:8080"))
                .hasMessage("-Dtarget=localhost:8080 must be http(s)://HOST:PORT, e.g. http://127.0.0.1:8080");
        assertThatThrownBy(() -> knobs("smoke", "maybe").bool("smoke", false))
                .hasMessage("-Dsmoke=maybe must be true or false");
        assertThatThrownBy(() -> knobs("seed", "4.2").longValue("seed", 42))
                .hasMessage("-Dseed=4.2 must be a whole number");
        assertThatThrownBy(() -> knobs("payload", "huge").parse("payload", "100", Payloads::parseSize))
                .hasMessage("-Dpayload=huge must be a size from 0 to 61440 bytes (60KiB): 100, 1KiB, 10KiB, ...");
        assertThatThrownBy(() -> knobs("mix", "80:20").parse("mix", "80:10:5:5", Mix::parse))
                .hasMessage("-Dmix=80:20 must be GET:POST:PUT:DELETE weights, numbers >= 0 and not all 0, e.g. 80:10:5:5");
        Knobs percent = knobs("maxFailedPct", "150");
        double pct = percent.decimal("maxFailedPct", 0);
        assertThatThrownBy(() -> percent.require("maxFailedPct", pct <= 100, "a percentage from 0 to 100"))
                .hasMessage("-DmaxFailedPct=150 must be a percentage from 0 to 100");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "workload | mixed | -Dworkload=mixed must be one of journey, mix, plaintext, json, delay",
        "keys     | 0     | -Dkeys=0 must be a whole number, at least 1",
        "delayMs  | 20000 | -DdelayMs=20000 must be 0..10000 (milliseconds)",
        "runId    | a.b   | -DrunId=a.b must be 1..48 characters of [A-Za-z0-9_~-] (no dot: dots separate the parts of a key)",
        "injector | i 0   | -Dinjector=i 0 must be 1..48 characters of [A-Za-z0-9_~-] (no dot: dots separate the parts of a key)",
    })
    void aBadWorkloadKnobSaysWhatIsAllowed(String knob, String value, String message) {
        Knobs knobs = knobs(knob, value);
        String name = knobs.string("workload", "mix");
        int keys = knobs.integer("keys", 1000);
        int delayMs = knobs.integer("delayMs", 150);
        String runId = knobs.string("runId", "r1");
        String injector = knobs.string("injector", "i0");
        assertThatThrownBy(() -> knobs.build(() -> Workload.of(name, new Workload.Settings(new KeySpace(runId, injector), 42,
                100, keys, Mix.READ_HEAVY, delayMs)), TestbedSimulation.WORKLOAD_KNOBS))
                .isInstanceOf(Knobs.BadKnobException.class)
                .hasMessage(message);
    }
}
