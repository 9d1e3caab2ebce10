package org.testbed.jmeter;

import java.nio.file.Path;
import org.testbed.jmeter.OperationSampler.Assertion;
import org.testbed.jmeter.OperationSampler.BodyEquals;
import org.testbed.jmeter.OperationSampler.BodyIsRowItem;
import org.testbed.jmeter.OperationSampler.HeaderPresent;
import org.testbed.jmeter.OperationSampler.JsonField;

/** The .jmx of a {@link JMeterPlan}: the test elements, their properties as JMeter names them. */
final class PlanXml {
    /** ResponseAssertion's test types: the whole text equals the pattern; a regular expression finds a match. */
    private static final int EQUALS = 8;
    private static final int CONTAINS = 2;
    /** The thread variable a captured ETag is kept in. */
    static final String ETAG_VARIABLE = "etag";
    /** JMeter's open-model thread group (5.5+) and the property holding its schedule. */
    static final String OPEN_THREAD_GROUP = "OpenModelThreadGroup";
    static final String OPEN_SCHEDULE = "OpenModelThreadGroup.schedule";

    private PlanXml() {
    }

    static String render(String workload, JMeterPlan.Settings settings, Path lanes, Iterable<OperationSampler> samplers) {
        JmxWriter w = new JmxWriter(JMeterPlan.JMETER_VERSION);
        w.element("TestPlan", "TestPlanGui", "testbed " + workload + (settings.isOpen() ? " " + rateText(settings.rate()) + "/s"
                        : " c=" + settings.users()))
                .string("TestPlan.comments", "Generated from the scenario library (testbed-jmeter); do not edit, regenerate.")
                .bool("TestPlan.functional_mode", false)
                .bool("TestPlan.serialize_threadgroups", false)
                .elementProp("TestPlan.user_defined_variables", "Arguments").collection("Arguments.arguments")
                // Which engine ran a sample: each remote engine is started with its own testbed.engine, and
                // sample_variables writes this variable beside every sample (JMeterDriver.ENGINE).
                .elementProp(JMeterDriver.ENGINE, "Argument")
                .string("Argument.name", JMeterDriver.ENGINE)
                .string("Argument.value", "${__P(" + JMeterDriver.ENGINE_PROPERTY + "," + JMeterDriver.LOCAL_ENGINE + ")}")
                .string("Argument.metadata", "=")
                .end()
                .end().end()
                .end().children();
        if (settings.isOpen()) {
            openThreadGroup(w, settings);
        } else {
            threadGroup(w, settings);
        }
        w.children();
        // Each loop: the thread's next row, then the sampler its operation names.
        w.element("CSVDataSet", "TestBeanGUI", "lane")
                // A remote engine reads its own users' lanes from where they were copied (testbed.lanes there).
                .string("filename", "${__P(" + JMeterDriver.LANES_PROPERTY + "," + lanes.toString().replace(",", "\\,")
                        + ")}/" + (settings.isOpen() ? JMeterPlan.laneFile(1) : "lane-${__threadNum}.tsv"))
                .string("fileEncoding", "US-ASCII")
                .string("variableNames", String.join(",", JMeterPlan.COLUMNS))
                .bool("ignoreFirstLine", false)
                .string("delimiter", "\\t")
                .bool("quotedData", false)
                .bool("recycle", true)
                .bool("stopThread", false)
                // Closed: each user its own lane. Open: every arrival the next row of the one sequence.
                .string("shareMode", settings.isOpen() ? "shareMode.all" : "shareMode.thread")
                .end().noChildren();
        if (!settings.pacing().think().isNone()) {
            // Think time before each request of the user's (a timer runs before the samplers in its scope).
            long min = settings.pacing().think().min().toMillis();
            w.element("UniformRandomTimer", "UniformRandomTimerGui", "think")
                    .string("ConstantTimer.delay", Long.toString(min))
                    .string("RandomTimer.range", Long.toString(settings.pacing().think().max().toMillis() - min))
                    .end().noChildren();
        }
        w.element("SwitchController", "SwitchControllerGui", "operation")
                .string("SwitchController.value", "${operation}")
                .end().children();
        for (OperationSampler sampler : samplers) {
            sampler(w, sampler, settings);
        }
        w.end(); // the switch's children
        w.end(); // the thread group's children
        return w.text();
    }

    /**
     * The closed model: every user started at once (or evenly over the pacing's ramp), each looping
     * until the scheduler's seconds (after the warm-up or the ramp) are over.
     */
    private static void threadGroup(JmxWriter w, JMeterPlan.Settings settings) {
        w.element("ThreadGroup", "ThreadGroupGui", "users")
                // On several engines each runs its share of the users (testbed.users there): JMeter's count is per engine.
                .string("ThreadGroup.num_threads", "${__P(" + JMeterDriver.USERS_PROPERTY + "," + settings.users() + ")}")
                .string("ThreadGroup.ramp_time", Long.toString(settings.pacing().rampSeconds()))
                // The same user on every loop: its connection (and cookies) are kept, not reset per iteration.
                .bool("ThreadGroup.same_user_on_next_iteration", true)
                .string("ThreadGroup.on_sample_error", "continue")
                .elementProp("ThreadGroup.main_controller", "LoopController")
                .string("LoopController.loops", "-1")
                .bool("LoopController.continue_forever", false)
                .end()
                .bool("ThreadGroup.scheduler", true)
                .string("ThreadGroup.duration", Long.toString(settings.leadSeconds() + settings.seconds()))
                .string("ThreadGroup.delay", "0")
                .end();
    }

    /**
     * The open model: JMeter's open-model thread group, a new thread at each arrival, evenly spaced
     * ({@code even_arrivals}, as testbed-nio's open model spaces them, not Poisson's
     * {@code random_arrivals}) at the plan's rate for its seconds; each thread runs the group once.
     */
    private static void openThreadGroup(JmxWriter w, JMeterPlan.Settings settings) {
        w.element(OPEN_THREAD_GROUP, "OpenModelThreadGroupGui", "arrivals")
                .elementProp("ThreadGroup.main_controller", "OpenModelThreadGroupController").end()
                .string("ThreadGroup.on_sample_error", "continue")
                .string(OPEN_SCHEDULE, schedule(settings.rate(), settings.leadSeconds() + settings.seconds()))
                .string("OpenModelThreadGroup.random_seed", "")
                .end();
    }

    /**
     * JMeter's schedule of a constant rate, then a pause in which the last arrivals finish
     * ({@link JMeterPlan#OPEN_PAUSE_SECONDS}): {@code rate(200/sec) even_arrivals(5 sec) pause(1 sec)}.
     */
    static String schedule(double rate, long seconds) {
        return "rate(" + rateText(rate) + "/sec) even_arrivals(" + seconds + " sec) pause(" + JMeterPlan.OPEN_PAUSE_SECONDS
                + " sec)";
    }

    /** A rate as JMeter's schedule parser reads it: a plain decimal, no exponent, no trailing zeros. */
    static String rateText(double rate) {
        return java.math.BigDecimal.valueOf(rate).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    private static void sampler(JmxWriter w, OperationSampler s, JMeterPlan.Settings settings) {
        String timeout = Long.toString(settings.requestTimeout().toMillis());
        w.element("HTTPSamplerProxy", "HttpTestSampleGui", s.label())
                .string("HTTPSampler.domain", settings.target().host())
                .string("HTTPSampler.port", Integer.toString(settings.target().port()))
                .string("HTTPSampler.protocol", settings.target().tls() ? "https" : "http")
                .string("HTTPSampler.path", "${path}")
                .string("HTTPSampler.method", s.method().name())
                .string("HTTPSampler.contentEncoding", "UTF-8")
                .string("HTTPSampler.implementation", "HttpClient4")
                .string("HTTPSampler.connect_timeout", timeout)
                .string("HTTPSampler.response_timeout", timeout)
                .bool("HTTPSampler.follow_redirects", false)
                .bool("HTTPSampler.auto_redirects", false)
                .bool("HTTPSampler.use_keepalive", true)
                .bool("HTTPSampler.DO_MULTIPART_POST", false);
        if (s.sendsBody()) {
            w.bool("HTTPSampler.postBodyRaw", true)
                    .elementProp("HTTPsampler.Arguments", "Arguments").collection("Arguments.arguments")
                    .elementProp("", "HTTPArgument")
                    .bool("HTTPArgument.always_encode", false)
                    .string("Argument.value", "${body}")
                    .string("Argument.metadata", "=")
                    .end().end().end();
        } else {
            w.elementProp("HTTPsampler.Arguments", "Arguments").collection("Arguments.arguments").end().end();
        }
        w.end().children();
        if (s.sendsBody() || s.sendIfMatch()) {
            w.element("HeaderManager", "HeaderPanel", "headers").collection("HeaderManager.headers");
            if (s.sendsBody()) {
                header(w, "Content-Type", "application/json");
            }
            if (s.sendIfMatch()) {
                header(w, "If-Match", "${" + ETAG_VARIABLE + "}");
            }
            w.end().end().noChildren();
        }
        // The status first: it alone decides whether the status is fine (an expected 404 passes).
        responseAssertion(w, "status " + s.expectedStatus(), "Assertion.response_code", EQUALS,
                Integer.toString(s.expectedStatus()), true);
        for (Assertion check : s.checks()) {
            assertion(w, check);
        }
        if (s.captureEtag()) {
            w.element("RegexExtractor", "RegexExtractorGui", "capture ETag")
                    .string("RegexExtractor.useHeaders", "true")
                    .string("RegexExtractor.refname", ETAG_VARIABLE)
                    .string("RegexExtractor.regex", "(?im)^etag:\\s*(\\S+)")
                    .string("RegexExtractor.template", "$1$")
                    .string("RegexExtractor.default", "")
                    .string("RegexExtractor.match_number", "1")
                    .end().noChildren();
        }
        w.end();
    }

    private static void assertion(JmxWriter w, Assertion check) {
        if (check instanceof HeaderPresent h) {
            responseAssertion(w, h.name() + " header", "Assertion.response_headers", CONTAINS,
                    "(?im)^" + h.name() + ":\\s*\\S", false);
        } else if (check instanceof BodyIsRowItem) {
            responseAssertion(w, "body is the item written", "Assertion.response_data", EQUALS, "${expected}", false);
        } else if (check instanceof BodyEquals b) {
            responseAssertion(w, "body", "Assertion.response_data", EQUALS, b.text(), false);
        } else if (check instanceof JsonField j) {
            w.element("JSONPathAssertion", "JSONPathAssertionGui", j.field() + " is " + j.value())
                    .string("JSON_PATH", "$." + j.field())
                    .string("EXPECTED_VALUE", j.value())
                    .bool("JSONVALIDATION", true)
                    .bool("EXPECT_NULL", false)
                    .bool("INVERT", false)
                    .bool("ISREGEX", false)
                    .end().noChildren();
        } else {
            throw new IllegalArgumentException("no JMeter element for " + check);
        }
    }

    private static void header(JmxWriter w, String name, String value) {
        w.elementProp("", "Header").string("Header.name", name).string("Header.value", value).end();
    }

    private static void responseAssertion(JmxWriter w, String name, String field, int type, String pattern,
                                          boolean decidesStatus) {
        // "Asserion.test_strings" is JMeter's own spelling of the property.
        w.element("ResponseAssertion", "AssertionGui", name)
                .collection("Asserion.test_strings").string("0", pattern).end()
                .string("Assertion.custom_message", "")
                .string("Assertion.test_field", field)
                .bool("Assertion.assume_success", decidesStatus)
                .integer("Assertion.test_type", type)
                .end().noChildren();
    }
}
