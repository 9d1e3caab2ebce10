package org.testbed.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.jmeter.assertions.ResponseAssertion;
import org.apache.jmeter.config.CSVDataSet;
import org.apache.jmeter.control.SwitchController;
import org.apache.jmeter.extractor.RegexExtractor;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.threads.openmodel.OpenModelThreadGroup;
import org.apache.jmeter.threads.openmodel.ScheduleParser;
import org.apache.jmeter.threads.openmodel.ThreadScheduleStep;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.driver.Target;
import org.testbed.scenario.CrudJourney;
import org.testbed.scenario.KeySpace;
import org.testbed.scenario.Mix;
import org.testbed.scenario.Workload;

/** The generated plans, loaded by JMeter's own SaveService (as JMeter loads a .jmx), and their lane files. */
class JMeterPlanTest {
    private static final Target TARGET = Target.of(java.net.URI.create("http://127.0.0.1:18080"));

    @TempDir
    Path dir;

    @BeforeAll
    static void jmeterHome() {
        // The home this module's build lays out (process-resources) before the tests run.
        Path home = Path.of("target", "jmeter").toAbsolutePath();
        JMeterUtils.setJMeterHome(home.toString());
        JMeterUtils.loadJMeterProperties(home.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
    }

    @Test
    void realisticUsersRampUpAndThinkBeforeEachRequest() throws Exception {
        JMeterPlan.Pacing pacing = new JMeterPlan.Pacing(Duration.ofSeconds(20),
                new org.testbed.scenario.ThinkTime(Duration.ofMillis(500), Duration.ofMillis(2000)));
        Path plan = JMeterPlan.write(dir, mix(), JMeterPlan.Settings.closed(TARGET, 10, 30, Duration.ofSeconds(3), pacing));
        HashTree tree = SaveService.loadTree(plan.toFile());
        ThreadGroup group = only(tree, ThreadGroup.class);
        assertThat(group.getRampUp()).isEqualTo(20);
        assertThat(group.getDuration()).as("the ramp, then the window").isEqualTo(50);
        org.apache.jmeter.timers.UniformRandomTimer think = only(tree, org.apache.jmeter.timers.UniformRandomTimer.class);
        assertThat(think.getPropertyAsString("ConstantTimer.delay")).isEqualTo("500");
        assertThat(think.getPropertyAsString("RandomTimer.range")).isEqualTo("1500");
    }

    @Test
    void mixPlanHasOneKeepAliveSamplerPerOperationUnderAClosedModel() throws Exception {
        Path plan = JMeterPlan.write(dir, mix(), new JMeterPlan.Settings(TARGET, 4, 7, Duration.ofSeconds(3), 2000));
        HashTree tree = SaveService.loadTree(plan.toFile());

        ThreadGroup group = only(tree, ThreadGroup.class);
        assertThat(group.getPropertyAsString(ThreadGroup.NUM_THREADS)).as("4 users unless an engine is told its share")
                .isEqualTo("${__P(testbed.users,4)}");
        assertThat(group.getScheduler()).isTrue();
        assertThat(group.getDuration()).as("the warm-up, then the window").isEqualTo(JMeterPlan.WARMUP_SECONDS + 7);
        assertThat(group.getRampUp()).isZero();

        CSVDataSet lane = only(tree, CSVDataSet.class);
        assertThat(lane.getPropertyAsString("filename")).as("the lanes here unless an engine is told where its own are")
                .startsWith("${__P(testbed.lanes,").endsWith("lanes)}/lane-${__threadNum}.tsv");
        assertThat(lane.getPropertyAsString("shareMode")).isEqualTo("shareMode.thread");
        assertThat(lane.getPropertyAsString("variableNames")).isEqualTo("operation,path,body,expected");
        assertThat(only(tree, SwitchController.class).getPropertyAsString("SwitchController.value")).isEqualTo("${operation}");

        List<HTTPSamplerProxy> samplers = all(tree, HTTPSamplerProxy.class);
        assertThat(samplers).extracting(TestElement::getName).containsExactly("GET", "POST", "PUT", "DELETE");
        for (HTTPSamplerProxy s : samplers) {
            assertThat(s.getMethod()).isEqualTo(s.getName());
            assertThat(s.getDomain()).isEqualTo("127.0.0.1");
            assertThat(s.getPort()).isEqualTo(18080);
            assertThat(s.getPath()).isEqualTo("${path}");
            assertThat(s.getImplementation()).isEqualTo("HttpClient4");
            assertThat(s.getUseKeepAlive()).isTrue();
            assertThat(s.getConnectTimeout()).isEqualTo(3000);
            assertThat(s.getResponseTimeout()).isEqualTo(3000);
            assertThat(s.getPostBodyRaw()).isEqualTo(s.getName().equals("POST") || s.getName().equals("PUT"));
        }
        // Status assertions decide alone; writes check the exact item from the row; everything but DELETE the ETag.
        List<ResponseAssertion> assertions = all(tree, ResponseAssertion.class);
        assertThat(assertions).extracting(TestElement::getName).containsExactly(
                "status 200", "ETag header",
                "status 200", "ETag header", "body is the item written",
                "status 201", "ETag header", "body is the item written",
                "status 204");
        assertThat(assertions.get(0).getTestStrings().get(0).getStringValue()).isEqualTo("200");
        assertThat(assertions.get(4).getTestStrings().get(0).getStringValue()).isEqualTo("${expected}");
        assertThat(all(tree, HeaderManager.class)).hasSize(2)
                .allSatisfy(h -> assertThat(h.getFirstHeaderNamed("Content-Type").getValue()).isEqualTo("application/json"));
        assertThat(all(tree, RegexExtractor.class)).isEmpty();
    }

    @Test
    void lanesReplayTheMixInItsProportionsOnKeysThatNeverCollide() throws Exception {
        JMeterPlan.write(dir, mix(), new JMeterPlan.Settings(TARGET, 4, 5, Duration.ofSeconds(3), 2000));
        Map<String, Integer> counts = new HashMap<>();
        List<String> churnKeysByLane = new ArrayList<>();
        int rows = 0;
        for (int thread = 1; thread <= 4; thread++) {
            List<String> lines = Files.readAllLines(dir.resolve("lanes").resolve(JMeterPlan.laneFile(thread)));
            assertThat(lines.size()).isBetween(2000, 2000 + 8);
            for (String line : lines) {
                String[] f = line.split("\t", -1);
                assertThat(f).hasSize(4);
                counts.merge(f[0], 1, Integer::sum);
                rows++;
                assertThat(f[1]).startsWith("/testbed/items/");
                String id = f[1].substring("/testbed/items/".length());
                if (f[0].equals("PUT")) {
                    assertThat(id).as("a lane's churn keys are its own").startsWith("run.jm." + (thread - 1) + ".c");
                    churnKeysByLane.add(id);
                    assertThat(f[2]).startsWith("{\"name\":\"churn-" + (thread - 1) + "\",\"payload\":\"");
                    // The row's item, as the server returns it: the body's fields with the id first.
                    assertThat(f[3]).isEqualTo("{\"id\":\"" + id + "\"," + f[2].substring(1));
                    assertThat(f[2]).hasSize("{\"name\":\"churn-0\",\"payload\":\"\"}".length() + 100);
                } else if (f[0].equals("GET")) {
                    assertThat(id).startsWith("pre.100.");
                    assertThat(f[2]).isEqualTo("-");
                    assertThat(f[3]).isEqualTo("-");
                }
            }
        }
        assertThat(churnKeysByLane).doesNotHaveDuplicates();
        assertThat(counts.get("GET") / (double) rows).isCloseTo(0.80, within(0.02));
        assertThat(counts.get("POST") / (double) rows).isCloseTo(0.10, within(0.02));
        assertThat(counts.get("PUT") / (double) rows).isCloseTo(0.05, within(0.01));
        assertThat(counts.get("DELETE") / (double) rows).isCloseTo(0.05, within(0.01));
        // Repeatable: each lane deletes every churn key it creates before its cycle starts over.
        assertThat(counts.get("DELETE")).isEqualTo(counts.get("PUT"));
    }

    @Test
    void journeyPlanCapturesTheETagAndSendsItAsIfMatch() throws Exception {
        Workload journey = new CrudJourney(new KeySpace("run", "jm"), 100, 42L);
        Path plan = JMeterPlan.write(dir, journey, new JMeterPlan.Settings(TARGET, 2, 5, Duration.ofSeconds(3), 100));
        HashTree tree = SaveService.loadTree(plan.toFile());
        assertThat(all(tree, HTTPSamplerProxy.class)).extracting(TestElement::getName).containsExactlyElementsOf(CrudJourney.STEPS);
        // Both reads capture the ETag (Requests.read), as testbed-nio keeps the last one seen.
        assertThat(all(tree, RegexExtractor.class)).hasSize(2).allSatisfy(etag -> {
            assertThat(etag.getRefName()).isEqualTo("etag");
            assertThat(etag.useHeaders()).isTrue();
        });
        assertThat(all(tree, HeaderManager.class).stream().map(h -> h.getFirstHeaderNamed("If-Match"))
                .filter(Objects::nonNull).map(Header::getValue)).containsExactly("${etag}");
        assertThat(all(tree, ResponseAssertion.class)).extracting(TestElement::getName).contains("status 404");
        // Whole journeys only, so that a cycle starting over never creates a key it still holds.
        assertThat(Files.readAllLines(dir.resolve("lanes").resolve(JMeterPlan.laneFile(1)))).hasSize(102);
    }

    @Test
    void openPlanStartsEvenArrivalsAtTheRateOverOneSharedSequence() throws Exception {
        Path plan = JMeterPlan.write(dir, mix(), JMeterPlan.Settings.open(TARGET, 1, 200, 3, Duration.ofSeconds(3)));
        HashTree tree = SaveService.loadTree(plan.toFile());
        assertThat(all(tree, ThreadGroup.class)).as("no closed-model users").isEmpty();
        OpenModelThreadGroup group = only(tree, OpenModelThreadGroup.class);
        assertThat(group.getPropertyAsString("OpenModelThreadGroup.schedule"))
                .as("the warm-up and the window, then a pause for the last arrivals")
                .isEqualTo("rate(200/sec) even_arrivals(5 sec) pause(1 sec)");
        // JMeter's own parser reads it as one constant-rate step, then a second of no arrivals: the schedule JMeter will run.
        assertThat(new ScheduleParser(group.getPropertyAsString("OpenModelThreadGroup.schedule")).parse().getSteps())
                .startsWith(new ThreadScheduleStep.RateStep(200.0),
                        new ThreadScheduleStep.ArrivalsStep(ThreadScheduleStep.ArrivalType.EVEN, 5.0),
                        new ThreadScheduleStep.RateStep(200.0), new ThreadScheduleStep.RateStep(0.0),
                        new ThreadScheduleStep.ArrivalsStep(ThreadScheduleStep.ArrivalType.EVEN, 1.0));
        assertThat(group.getPropertyAsString("ThreadGroup.on_sample_error")).isEqualTo("continue");

        CSVDataSet sequence = only(tree, CSVDataSet.class);
        assertThat(sequence.getPropertyAsString("shareMode")).as("every arrival takes the next row").isEqualTo("shareMode.all");
        assertThat(sequence.getPropertyAsString("filename")).endsWith("lanes)}/lane-1.tsv");
        assertThat(all(tree, HTTPSamplerProxy.class)).extracting(TestElement::getName).containsExactly("GET", "POST", "PUT", "DELETE");

        // The rows: lane 0's, a churn key deleted only a delete lag of arrivals after its create.
        List<String> rows = Files.readAllLines(dir.resolve("lanes").resolve(JMeterPlan.laneFile(1)));
        assertThat(rows.size()).as("at least five delete lags, so that the mix keeps its deletes")
                .isGreaterThanOrEqualTo(5 * JMeterPlan.MIN_OPEN_DELETE_LAG);
        assertThat(Files.exists(dir.resolve("lanes").resolve(JMeterPlan.laneFile(2)))).isFalse();
        Map<String, Integer> createdAt = new HashMap<>();
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            String[] f = rows.get(i).split("\t", -1);
            counts.merge(f[0], 1, Integer::sum);
            String id = f[1].substring("/testbed/items/".length());
            if (f[0].equals("PUT")) {
                assertThat(id).startsWith("run.jm.0.c");
                assertThat(createdAt.put(id, i)).as("a churn key created once").isNull();
            } else if (f[0].equals("DELETE") && i < rows.size() - 2 * JMeterPlan.MIN_OPEN_DELETE_LAG) {
                // The cycle's tail deletes what it still holds at once; before it, a key lives a delete lag.
                assertThat(i - createdAt.get(id)).as("rows between the create and the delete of " + id)
                        .isGreaterThanOrEqualTo(JMeterPlan.MIN_OPEN_DELETE_LAG);
            }
        }
        assertThat(counts.get("DELETE")).as("repeatable: every churn key deleted").isEqualTo(counts.get("PUT"));
        assertThat(counts.get("GET") / (double) rows.size()).isCloseTo(0.80, within(0.02));
    }

    @Test
    void openPlanOnSeveralEnginesHasASequenceEachAndTheRateAsGiven() throws Exception {
        // The driver gives each engine the step's rate divided; the plan runs what it is given.
        Path plan = JMeterPlan.write(dir, mix(), JMeterPlan.Settings.open(TARGET, 2, 2500.5, 30, Duration.ofSeconds(3)));
        OpenModelThreadGroup group = only(SaveService.loadTree(plan.toFile()), OpenModelThreadGroup.class);
        assertThat(group.getPropertyAsString("OpenModelThreadGroup.schedule")).isEqualTo("rate(2500.5/sec) even_arrivals(32 sec) pause(1 sec)");
        List<String> first = Files.readAllLines(dir.resolve("lanes").resolve(JMeterPlan.laneFile(1)));
        List<String> second = Files.readAllLines(dir.resolve("lanes").resolve(JMeterPlan.laneFile(2)));
        assertThat(first.size()).as("as many rows as the step sends, within the files' bound").isBetween(75_016, 100_000);
        assertThat(second.stream().filter(r -> r.startsWith("PUT")).map(r -> r.split("\t")[1]))
                .allSatisfy(path -> assertThat(path).contains("run.jm.1.c"));
    }

    @Test
    void theJourneyHasNoOpenPlan() {
        Workload journey = new CrudJourney(new KeySpace("run", "jm"), 100, 42L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JMeterPlan.write(dir, journey,
                        JMeterPlan.Settings.open(TARGET, 1, 100, 3, Duration.ofSeconds(1))))
                .hasMessageContaining("CRUD journey is an ordered sequence per user");
    }

    @Test
    void refusesAPlanWithoutUsers() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new JMeterPlan.Settings(TARGET, 0, 5, Duration.ofSeconds(1), 10))
                .hasMessageContaining("at least 1 user");
    }

    private static Workload mix() {
        return Workload.of("mix", new Workload.Settings(new KeySpace("run", "jm"), 42L, 100, 1000, Mix.READ_HEAVY, 150));
    }

    private static <T> T only(HashTree tree, Class<T> type) {
        List<T> found = all(tree, type);
        assertThat(found).as(type.getSimpleName() + " elements").hasSize(1);
        return found.get(0);
    }

    private static <T> List<T> all(HashTree tree, Class<T> type) {
        SearchByClass<T> search = new SearchByClass<>(type);
        tree.traverse(search);
        return new ArrayList<>(search.getSearchResults());
    }
}
