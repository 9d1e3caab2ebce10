package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WrkScriptTest {
    private static final KeySpace KEYS = new KeySpace("run1", "wrk");

    @Test
    void mixScriptCarriesTheSamePathsAndBodiesAsTheLibrary() {
        ReadHeavyMix mix = new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 100, 100, 42);
        String lua = WrkScript.render(mix, 2, 96, 500);
        assertPlausibleLua(lua);
        assertThat(lua).contains("function setup(thread)", "function init(args)", "function request()",
                "function done(summary, latency, requests)", "wrk.format(", "testbed-wrk requests=");
        for (int thread = 0; thread < 2; thread++) {
            for (RequestSpec spec : LaneCycle.of(renderedVariant(mix, 2, 96), thread, 500)) {
                String entry = "{" + WrkScript.quote(spec.method().name()) + ", " + WrkScript.quote(spec.path())
                        + (spec.hasBody() ? ", " + WrkScript.quote(spec.bodyText()) : "") + "},";
                assertThat(lua).contains(entry);
            }
        }
        // The first requests of lane 0 are the library's own, bodies included.
        RequestSpec first = mix.stream(0).next();
        assertThat(lua).contains(WrkScript.quote(first.path()));
    }

    @Test
    void eachThreadsCycleDeletesEveryKeyItCreatedLongAfterCreatingIt() {
        ReadHeavyMix mix = renderedVariant(new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 100, 100, 42), 2, 96);
        for (int thread = 0; thread < 2; thread++) {
            List<RequestSpec> cycle = LaneCycle.of(mix, thread, 20_000);
            Map<String, Integer> live = new HashMap<>();
            for (int i = 0; i < cycle.size(); i++) {
                RequestSpec spec = cycle.get(i);
                if (spec.method() == HttpMethod.PUT) {
                    assertThat(live.put(spec.path(), i)).isNull();
                } else if (spec.method() == HttpMethod.DELETE) {
                    Integer created = live.remove(spec.path());
                    assertThat(created).isNotNull();
                    if (i < 20_000) {
                        assertThat(i - created).isGreaterThanOrEqualTo(WrkScript.MIN_DELETE_LAG);
                    }
                }
            }
            assertThat(live).isEmpty();
        }
    }

    @Test
    void largeCyclesAreSplitIntoFunctionsOfBoundedSize() {
        // LuaJIT refuses a function with more than 65536 constants; wrk then silently sends GET /.
        String lua = WrkScript.render(new ReadHeavyMix(KEYS, Mix.READ_HEAVY, 100, 100, 42), 2, 96, 25_000);
        assertPlausibleLua(lua);
        for (String chunk : lua.split("\\(function\\(\\) return \\{")) {
            long entries = chunk.lines().filter(line -> line.startsWith("  {\"")).count();
            assertThat(entries).isLessThanOrEqualTo(WrkScript.CHUNK);
        }
        assertThat(count(lua, "\\(function\\(\\) return \\{")).isGreaterThanOrEqualTo(2 * 13);
    }

    @Test
    void fixedWorkloadsAndQuoting() {
        String lua = WrkScript.render(new Workload.Fixed("plaintext", Requests.plaintext()), 1, 1, 1);
        assertPlausibleLua(lua);
        assertThat(lua).contains("  {\"GET\", \"/testbed/plaintext\"},");
        assertThat(WrkScript.quote("{\"a\":\"b\\c\"}\n")).isEqualTo("\"{\\\"a\\\":\\\"b\\\\c\\\"}\\n\"");
        assertThat(WrkScript.quote("é")).isEqualTo("\"\\195\\169\"");
    }

    @Test
    void theJourneyIsRefused() {
        assertThatThrownBy(() -> WrkScript.render(new CrudJourney(KEYS, 100, 1), 2, 96, 100))
                .hasMessageContaining("strict request order");
    }

    private static ReadHeavyMix renderedVariant(ReadHeavyMix mix, int threads, int connections) {
        int lag = WrkScript.deleteLag(threads, connections);
        return new ReadHeavyMix(mix.keys(), mix.mix(), mix.preloadKeys(), mix.payloadSize(), mix.seed(),
                Math.max(mix.churnCap(), 2 * lag), lag);
    }

    /** Balanced brackets outside strings, closed strings, matching function/if/for ... end. */
    private static void assertPlausibleLua(String lua) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < lua.length(); i++) {
            char c = lua.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                } else {
                    assertThat(c).as("raw newline inside a string at %d", i).isNotEqualTo('\n');
                }
            } else if (c == '-' && lua.startsWith("--", i)) {
                i = lua.indexOf('\n', i);
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '(' || c == '[') {
                depth++;
            } else if (c == '}' || c == ')' || c == ']') {
                depth--;
                assertThat(depth).as("closing bracket without opening at %d", i).isNotNegative();
            }
        }
        assertThat(inString).as("unterminated string").isFalse();
        assertThat(depth).as("unbalanced brackets").isZero();
        String code = lua.replaceAll("(?m)--.*$", "").replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
        int blocks = count(code, "\\bfunction\\b") + count(code, "\\bif\\b") + count(code, "\\bfor\\b");
        assertThat(count(code, "\\bend\\b")).as("blocks closed by end").isEqualTo(blocks);
    }

    private static int count(String s, String regex) {
        return (int) java.util.regex.Pattern.compile(regex).matcher(s).results().count();
    }
}
