package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.testbed.contract.RawClient.checkAnswer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.testbed.contract.RawConnection.RawResponse;
import org.testbed.variant.Variant;

/**
 * Hostile input, property-based (jqwik): random ids, headers and bodies against every selected
 * variant, each started once as a real process with its own memcached. Whatever arrives, the
 * answer is a 2xx or a 4xx (memcached stays up, so never a 5xx), every 4xx is a problem body
 * without a stack trace, a rejected request stores nothing, and a valid one succeeds.
 *
 * <p>jqwik is its own engine, so this is not a Jupiter {@code @ParameterizedClass}: the variant is
 * one of each property's parameters, and a failure (shrunk) names it together with the seed.
 * Requests are written by hand ({@link RawRequest}) because the JDK client refuses control
 * characters in header values and rewrites targets. The number of tries is fixed per property,
 * about 1,800 in all, which keeps the class to a minute or two for the ten variants on two cores.
 */
@ParallelSafe
class HostileInputIT {
    private static final int ID_TRIES = 500;
    private static final int HEADER_TRIES = 500;
    private static final int BODY_TRIES = 800;
    private static final int MAX_BODY = 65536;
    private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9._~-]{1,200}");
    private static final String UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-";

    private static final Map<String, RunningVariant> RUNNING = new LinkedHashMap<>();
    private static final Map<String, RawClient> CLIENTS = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> TRIES = new ConcurrentHashMap<>();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    @BeforeContainer
    static void startAll() throws Exception {
        List<Variant> variants = ContractVariants.selected();
        // Two at a time: each start is mostly one JVM warming up, and the machine may have two cores.
        ExecutorService starter = Executors.newFixedThreadPool(2);
        try {
            Map<String, Future<RunningVariant>> starts = new LinkedHashMap<>();
            for (Variant variant : variants) {
                starts.put(variant.name(), starter.submit(() -> RunningVariant.start(variant, List.of(), "hostile")));
            }
            for (Map.Entry<String, Future<RunningVariant>> start : starts.entrySet()) {
                RunningVariant running = start.getValue().get();
                RUNNING.put(start.getKey(), running);
                CLIENTS.put(start.getKey(), new RawClient(running.process.baseUri()));
                TRIES.put(start.getKey(), new AtomicInteger());
            }
        } finally {
            starter.shutdown();
        }
    }

    @AfterContainer
    static void stopAll() {
        int total = TRIES.values().stream().mapToInt(AtomicInteger::get).sum();
        TRIES.forEach((variant, tries) -> RobustnessSummary.record(variant, "hostile_inputs", tries.get()));
        CLIENTS.values().forEach(RawClient::close);
        RUNNING.values().forEach(RunningVariant::close);
        // Every variant must have had its share: a third of a fair share is far below chance.
        int minimum = RUNNING.isEmpty() ? 0 : total / (RUNNING.size() * 3);
        Map<String, Integer> tries = TRIES.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()));
        RUNNING.clear();
        CLIENTS.clear();
        TRIES.clear();
        assertThat(tries).as("hostile inputs tried per variant (at least %d each)", minimum)
                .allSatisfy((variant, n) -> assertThat(n).as(variant).isGreaterThanOrEqualTo(minimum));
    }

    @Provide
    Arbitrary<String> variants() {
        return Arbitraries.of(List.copyOf(RUNNING.keySet()));
    }

    private static RawClient client(String variant) {
        TRIES.get(variant).incrementAndGet();
        return CLIENTS.get(variant);
    }

    /** Unique per try (memcached is fresh per run), so no try sees another's item. */
    private static String uniquePrefix(String kind) {
        return kind + SEQUENCE.incrementAndGet() + "-";
    }

    // ---- ids ----

    /**
     * Only an id of 1..200 unreserved characters, as sent, is served; anything else (escapes,
     * Unicode, control characters, reserved characters, too long) is 400 and creates nothing, not
     * even under the id it would decode or clean up to.
     */
    @Property(tries = ID_TRIES, generation = GenerationMode.RANDOMIZED)
    void onlyValidIdsAreServedAndRejectedOnesStoreNothing(@ForAll("variants") String variant,
            @ForAll("ids") String id, @ForAll("itemMethods") String method) {
        RawClient client = client(variant);
        String fullId = uniquePrefix("i") + id;
        String what = variant + ": " + method + " id " + printable(fullId);
        RawRequest request = RawRequest.of(method, "/testbed/items/" + fullId, client.host());
        if (method.equals("PUT") || method.equals("POST")) {
            request.header("Content-Type", "application/json").body(item("n", "p"));
        }
        RawResponse response = client.exchange(request);
        checkAnswer(what, response);
        // Whitespace at the end of the id runs into the separator before "HTTP/1.1", and RFC 9112
        // lets a server split the request line on any whitespace (Tomcat on spaces and tabs, Netty
        // on all of Java's, VT and FF too): such a request may be read as the one for the trimmed id.
        // What follows that whitespace is then the version field, which Netty trims as String.trim
        // does (every control character up to the space): "i559-\t\0" was served as "i559-".
        String trimmed = fullId;
        boolean whitespace = false;
        while (!trimmed.isEmpty() && (trimmed.charAt(trimmed.length() - 1) <= ' '
                || Character.isWhitespace(trimmed.charAt(trimmed.length() - 1)))) {
            whitespace |= Character.isWhitespace(trimmed.charAt(trimmed.length() - 1));
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        if (whitespace && VALID_ID.matcher(trimmed).matches() && response.status() != 400) {
            fullId = trimmed;
        }
        if (VALID_ID.matcher(fullId).matches()) {
            assertThat(response.status()).as("%s: a valid id; body %s", what, text(response))
                    .isEqualTo(method.equals("PUT") ? 201 : 404);
            if (method.equals("PUT")) {
                assertThat(get(client, fullId).status()).as("%s: stored", what).isEqualTo(200);
            }
        } else {
            HttpProbe.assertProblem(what, response.toReply(), 400);
            for (String lookalike : lookalikes(fullId)) {
                assertThat(get(client, lookalike).status()).as("%s: nothing stored as %s", what, lookalike).isEqualTo(404);
            }
        }
    }

    @Provide
    Arbitrary<String> itemMethods() {
        return Arbitraries.of("GET", "PUT", "POST", "DELETE");
    }

    @Provide
    Arbitrary<String> ids() {
        Arbitrary<String> unreserved = Arbitraries.strings().withChars(UNRESERVED).ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> escape = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 255).map(b -> String.format("%%%02X", b)),
                Arbitraries.of("%2F", "%2f", "%00", "%2e", "%2E%2E", "%25", "%", "%G1", "%4", "%u0041", "%C3%A9",
                        "%FF", "%C0%AF", "%0D%0A"));
        Arbitrary<String> unicode = Arbitraries.oneOf(
                Arbitraries.strings().withCharRange('\u00a0', '\ud7ff').ofMinLength(1).ofMaxLength(3),
                Arbitraries.of("😀", "\u0130", "\ufeff", "\u200b", "\ufb01", "\u2215", "\uff0f", "\u00e9", "e\u0301"));
        // Every control character but CR and LF, which end the request line and are framing,
        // not id content (ExposureIT sends broken framing).
        Arbitrary<String> control = Arbitraries.chars().range('\u0000', '\u001f').filter(c -> c != '\r' && c != '\n')
                .map(String::valueOf);
        Arbitrary<String> del = Arbitraries.just("\u007f");
        // Reserved and unsafe characters, except '/', '?' and '#', which change what the path is.
        Arbitrary<String> reserved = Arbitraries.of(":", "@", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=",
                "[", "]", " ", "\"", "<", ">", "\\", "^", "`", "{", "|", "}");
        @SuppressWarnings("unchecked")
        Arbitrary<String> fragment = Arbitraries.frequencyOf(Tuple.of(6, unreserved), Tuple.of(3, escape),
                Tuple.of(2, unicode), Tuple.of(2, control), Tuple.of(1, del), Tuple.of(3, reserved));
        Arbitrary<String> hostile = fragment.list().ofMinSize(1).ofMaxSize(6).map(parts -> String.join("", parts));
        Arbitrary<String> valid = Arbitraries.strings().withChars(UNRESERVED).ofMinLength(0).ofMaxLength(195);
        // Around the 200-character limit and far above it; far below what a container takes in a
        // request line (Vert.x: 4 KiB), whose own limit ExposureIT checks.
        Arbitrary<String> overlong = Arbitraries.strings().withChars(UNRESERVED).ofMinLength(190).ofMaxLength(1500);
        @SuppressWarnings("unchecked")
        Arbitrary<String> ids = Arbitraries.frequencyOf(Tuple.of(3, valid), Tuple.of(6, hostile), Tuple.of(1, overlong));
        return ids;
    }

    /** Valid ids a lenient server might have made of {@code id}: decoded, cleaned, cut. */
    private static List<String> lookalikes(String id) {
        List<String> candidates = new ArrayList<>();
        candidates.add(percentDecoded(id));
        candidates.add(id.chars().filter(c -> UNRESERVED.indexOf(c) >= 0)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString());
        candidates.add(id.length() > 200 ? id.substring(0, 200) : id);
        return candidates.stream().filter(c -> VALID_ID.matcher(c).matches()).distinct().toList();
    }

    private static String percentDecoded(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '%' && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
                out.write(Integer.parseInt(new String(bytes, i + 1, 2, StandardCharsets.US_ASCII), 16));
                i += 2;
            } else {
                out.write(bytes[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }

    // ---- headers ----

    /** What the contract makes of a header set: known to succeed, known to fail so, or open. */
    enum Verdict { OK, UNSUPPORTED_415, PRECONDITION_412, ANY }

    /** Content-Type headers to send (none, one, or duplicates), and what they mean. */
    record ContentTypes(List<String> values, Verdict verdict) {
        @Override
        public String toString() {
            return verdict + " " + values.stream().map(HostileInputIT::abbreviated).toList();
        }
    }

    /** If-Match headers to send; {@code {etag}} is the item's current tag, {@code {stale}} its previous. */
    record IfMatches(List<String> values, Verdict verdict) {
        @Override
        public String toString() {
            return verdict + " " + values.stream().map(HostileInputIT::abbreviated).toList();
        }
    }

    /** Extra headers of any name and value; a header the contract ignores, unless it is malformed. */
    record Extra(String name, String value) {
        boolean wellFormed() {
            return name.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)
                    && value.chars().allMatch(c -> c == '\t' || (c >= 32 && c != 127));
        }

        @Override
        public String toString() {
            return printable(name) + ": " + abbreviated(value);
        }
    }

    /**
     * Any Content-Type, If-Match and extra headers (up to 6 KB, inside every container's 8 KiB
     * header limit) on a create or an update: known-good ones succeed, known-bad ones get their
     * status, and whatever is refused leaves the store as it was.
     */
    @Property(tries = HEADER_TRIES, generation = GenerationMode.RANDOMIZED)
    void anyHeadersAreAnsweredAndRejectedOnesChangeNothing(@ForAll("variants") String variant,
            @ForAll("contentTypes") ContentTypes contentTypes, @ForAll("ifMatches") IfMatches ifMatches,
            @ForAll("extras") List<Extra> extras, @ForAll boolean update) throws IOException {
        RawClient client = client(variant);
        String id = uniquePrefix("h") + "item";
        String what = variant + ": " + (update ? "POST" : "PUT") + " " + id;
        String stale = null;
        String current = null;
        RawResponse before = null;
        if (update) {
            RawResponse created = client.exchange(json("PUT", id, client.host(), item("first", "p")));
            assertThat(created.status()).as("%s: setup PUT", what).isEqualTo(201);
            stale = created.header("ETag");
            RawResponse updated = client.exchange(json("POST", id, client.host(), item("second", "p")));
            assertThat(updated.status()).as("%s: setup POST", what).isEqualTo(200);
            current = updated.header("ETag");
            before = get(client, id);
        }
        RawRequest request = RawRequest.of(update ? "POST" : "PUT", "/testbed/items/" + id, client.host());
        contentTypes.values().forEach(value -> request.header("Content-Type", value));
        for (String value : ifMatches.values()) {
            request.header("If-Match", update ? value.replace("{etag}", current).replace("{stale}", stale)
                    : value.replace("{etag}", "\"1\"").replace("{stale}", "\"2\""));
        }
        extras.forEach(extra -> request.header(extra.name(), extra.value()));
        request.body(item("changed", "q"));

        RawResponse response = client.exchange(request);
        checkAnswer(what, response);

        Verdict verdict = contentTypes.verdict();
        if (verdict == Verdict.OK) {
            verdict = update ? ifMatches.verdict() : ifMatches.values().isEmpty() ? Verdict.OK : Verdict.ANY;
        }
        // A malformed header (a control character in a value, a bad name) may be refused by the
        // container before the application sees the request: any 4xx then, as long as it is a problem.
        boolean controls = java.util.stream.Stream.concat(contentTypes.values().stream(), ifMatches.values().stream())
                .anyMatch(value -> value.chars().anyMatch(c -> (c < 32 && c != '\t') || c == 127));
        // An Expect the server does not know may be refused with 417 before anything else is looked
        // at (RFC 9110, 10.1.1; Tomcat does, Jetty and Netty let it through): any 4xx then too.
        boolean unknownExpectation = extras.stream().anyMatch(extra -> extra.name().equalsIgnoreCase("Expect"));
        if (controls || unknownExpectation || !extras.stream().allMatch(Extra::wellFormed)) {
            verdict = Verdict.ANY;
        }
        switch (verdict) {
            case OK -> assertThat(response.status()).as("%s: valid headers; body %s", what, text(response))
                    .isEqualTo(update ? 200 : 201);
            case UNSUPPORTED_415 -> HttpProbe.assertProblem(what, response.toReply(), 415);
            case PRECONDITION_412 -> HttpProbe.assertProblem(what, response.toReply(), 412);
            case ANY -> { }
        }
        RawResponse after = get(client, id);
        if (response.status() < 300) {
            assertThat(after.status()).as("%s: stored", what).isEqualTo(200);
            assertThat(HttpProbe.JSON.readTree(after.body()).path("name").asText()).as("%s: changed", what)
                    .isEqualTo("changed");
        } else if (update) {
            assertUnchanged(what, before, after);
        } else {
            assertThat(after.status()).as("%s: nothing stored", what).isEqualTo(404);
        }
    }

    @Provide
    Arbitrary<ContentTypes> contentTypes() {
        Arbitrary<ContentTypes> ok = Arbitraries.of("application/json", "application/json; charset=UTF-8",
                "application/json;charset=utf-8", "APPLICATION/JSON", "Application/Json; Charset=\"utf-8\"")
                .map(value -> new ContentTypes(List.of(value), Verdict.OK));
        Arbitrary<ContentTypes> unsupported = Arbitraries.of(List.<String>of(), List.of("text/plain"), List.of(""),
                List.of("application/x-www-form-urlencoded"), List.of("application/json; charset=iso-8859-1"),
                List.of("application/jsonx"), List.of("text/json"), List.of("application/xml"),
                List.of("multipart/form-data; boundary=x"), List.of("application/json-patch+json"))
                .map(values -> new ContentTypes(values, Verdict.UNSUPPORTED_415));
        Arbitrary<ContentTypes> open = Arbitraries.oneOf(
                headerValues(200).map(value -> List.of(value)),
                Arbitraries.of(List.of("application/json", "text/plain"), List.of("application/json", "application/json"),
                        List.of("application/json, text/plain"), List.of("application/json; charset=utf-8; charset=latin1"),
                        List.of("application/json; charset="), List.of("application/json;;"), List.of("*/*"),
                        List.of("application/*"), List.of("application/json; x=" + "y".repeat(3000)),
                        List.of("application/json\u0000"), List.of("application/json\u00e9")))
                .map(values -> new ContentTypes(values, Verdict.ANY));
        @SuppressWarnings("unchecked")
        Arbitrary<ContentTypes> all = Arbitraries.frequencyOf(Tuple.of(4, ok), Tuple.of(2, unsupported), Tuple.of(3, open));
        return all;
    }

    @Provide
    Arbitrary<IfMatches> ifMatches() {
        Arbitrary<IfMatches> ok = Arbitraries.of(List.<String>of(), List.of("*"), List.of("{etag}"))
                .map(values -> new IfMatches(values, Verdict.OK));
        Arbitrary<IfMatches> failing = Arbitraries.of("{stale}", "W/{etag}", "\"nope\"", "garbage", "\"", "\"\"",
                "\"" + "x".repeat(3000) + "\"", "W/\"1\"", "{etag}x")
                .map(value -> new IfMatches(List.of(value), Verdict.PRECONDITION_412));
        Arbitrary<IfMatches> open = Arbitraries.oneOf(
                headerValues(100).map(value -> List.of(value)),
                Arbitraries.of(List.of(""), List.of("{etag}, \"x\""), List.of("{etag}", "{etag}"),
                        List.of("{stale}", "{etag}"), List.of("*", "{stale}"), List.of("{etag},"), List.of(" {etag} ")))
                .map(values -> new IfMatches(values, Verdict.ANY));
        @SuppressWarnings("unchecked")
        Arbitrary<IfMatches> all = Arbitraries.frequencyOf(Tuple.of(4, ok), Tuple.of(3, failing), Tuple.of(3, open));
        return all;
    }

    @Provide
    Arbitrary<List<Extra>> extras() {
        Arbitrary<String> names = Arbitraries.oneOf(
                Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_!#$%&'*+.^`|~")
                        .ofMinLength(1).ofMaxLength(30),
                Arbitraries.of("X-Forwarded-For", "X-Forwarded-Host", "Forwarded", "Accept", "Accept-Encoding",
                        "Accept-Charset", "Cookie", "Authorization", "Expect", "Range", "If-None-Match",
                        "X-HTTP-Method-Override", "Origin", "Via", "Referer", "Trailer", "TE"),
                Arbitraries.of("Bad Name", "Bad:Name", "Bad\u0001Name", "Bad(Name)", "Bäd"));
        Arbitrary<String> huge = Arbitraries.integers().between(1000, 5000).map(n -> "v".repeat(n));
        @SuppressWarnings("unchecked")
        Arbitrary<String> values = Arbitraries.frequencyOf(Tuple.of(5, headerValues(300)), Tuple.of(1, huge));
        // Each list stays under 6 KB: request line and other headers fit in 8 KiB with it.
        return Combinators.combine(names, values).as(Extra::new).list().ofMaxSize(4)
                .filter(list -> list.stream().mapToInt(e -> e.name().length() + e.value().length() + 4).sum() <= 6000);
    }

    /** Header values of printable ASCII, obs-text (bytes 0x80-0xFF), tabs and other control characters. */
    private static Arbitrary<String> headerValues(int maxLength) {
        Arbitrary<Character> printable = Arbitraries.chars().range(' ', '~');
        Arbitrary<Character> obsText = Arbitraries.chars().range('\u0080', '\u00ff');
        Arbitrary<Character> controls = Arbitraries.chars().range('\u0000', '\u001f')
                .filter(c -> c != '\r' && c != '\n');
        @SuppressWarnings("unchecked")
        Arbitrary<Character> chars = Arbitraries.frequencyOf(Tuple.of(20, printable), Tuple.of(2, obsText), Tuple.of(1, controls));
        return chars.list().ofMaxSize(maxLength).map(list -> list.stream().map(String::valueOf).collect(Collectors.joining()));
    }

    // ---- bodies ----

    enum Expect { VALID, TOO_LARGE_413, INVALID_400, REJECTED_4XX, ANY }

    /** A body and what it must get; {@code name} and {@code payload} are what a VALID one stores. */
    record Body(String description, byte[] bytes, Expect expect, String name, String payload) {
        static Body of(String description, byte[] bytes, Expect expect) {
            return new Body(description, bytes, expect, null, null);
        }

        static Body of(String description, String json, Expect expect) {
            return of(description, json.getBytes(StandardCharsets.UTF_8), expect);
        }

        @Override
        public String toString() {
            return expect + " " + description + " (" + bytes.length + " bytes: "
                    + abbreviated(new String(bytes, StandardCharsets.ISO_8859_1)) + ")";
        }
    }

    /**
     * Any body on a create or an update: valid items are stored exactly (names counted in code
     * points, any Unicode, escapes), invalid ones are 400, oversize ones 413, and a refused one
     * leaves the store as it was.
     */
    @Property(tries = BODY_TRIES, generation = GenerationMode.RANDOMIZED)
    void anyBodyIsAnsweredAndOnlyValidOnesAreStored(@ForAll("variants") String variant,
            @ForAll("bodies") Body body, @ForAll boolean update) throws IOException {
        RawClient client = client(variant);
        String id = uniquePrefix("b") + "item";
        String what = variant + ": " + (update ? "POST" : "PUT") + " " + id + " " + body.description();
        RawResponse before = null;
        if (update) {
            assertThat(client.exchange(json("PUT", id, client.host(), item("before", "p"))).status())
                    .as("%s: setup PUT", what).isEqualTo(201);
            before = get(client, id);
        }
        RawResponse response = client.exchange(RawRequest.of(update ? "POST" : "PUT", "/testbed/items/" + id, client.host())
                .header("Content-Type", "application/json").body(body.bytes()));
        checkAnswer(what, response);
        // The size is checked before the content: anything over the limit is 413 whatever it holds.
        Expect expect = body.bytes().length > MAX_BODY && body.expect() != Expect.ANY ? Expect.TOO_LARGE_413 : body.expect();
        switch (expect) {
            case VALID -> assertThat(response.status()).as("%s: valid body; answer %s", what, text(response))
                    .isEqualTo(update ? 200 : 201);
            case TOO_LARGE_413 -> HttpProbe.assertProblem(what, response.toReply(), 413);
            case INVALID_400 -> HttpProbe.assertProblem(what, response.toReply(), 400);
            case REJECTED_4XX -> assertThat(response.status()).as("%s: refused", what).isBetween(400, 499);
            case ANY -> { }
        }
        RawResponse after = get(client, id);
        if (response.status() < 300) {
            assertThat(after.status()).as("%s: stored", what).isEqualTo(200);
            JsonNode stored = HttpProbe.JSON.readTree(after.body());
            assertThat(stored.path("id").asText()).as("%s: id", what).isEqualTo(id);
            if (expect == Expect.VALID) {
                assertThat(stored.path("name").asText()).as("%s: name", what).isEqualTo(body.name());
                assertThat(stored.path("payload").asText()).as("%s: payload", what).isEqualTo(body.payload());
            }
        } else if (update) {
            assertUnchanged(what, before, after);
        } else {
            assertThat(after.status()).as("%s: nothing stored", what).isEqualTo(404);
        }
    }

    @Provide
    Arbitrary<Body> bodies() {
        @SuppressWarnings("unchecked")
        Arbitrary<Body> all = Arbitraries.frequencyOf(
                Tuple.of(8, validBodies()),
                Tuple.of(2, codePoints(201, 260).map(name -> Body.of("name of " + name.codePointCount(0, name.length())
                        + " code points", objectJson(name, null, false), Expect.INVALID_400))),
                Tuple.of(3, invalidUtf8()),
                Tuple.of(2, rawControlCharacters()),
                Tuple.of(3, deepNesting()),
                Tuple.of(3, hugeNumbers()),
                Tuple.of(4, wrongShapes()),
                Tuple.of(3, Arbitraries.bytes().array(byte[].class).ofMaxSize(2000)
                        .map(bytes -> Body.of("random bytes", bytes, Expect.REJECTED_4XX))),
                Tuple.of(2, Arbitraries.strings().withChars("{}[]\":,. \\0123456789aeflnrstu-+E").ofMaxLength(60)
                        .map(text -> Body.of("JSON-ish tokens", text, Expect.ANY))),
                Tuple.of(2, sizes()));
        return all;
    }

    /** Names of 1..200 code points from all of Unicode (controls too, which JSON escapes), payloads absent, null or any. */
    private static Arbitrary<Body> validBodies() {
        Arbitrary<String> payloads = Arbitraries.oneOf(Arbitraries.just((String) null), Arbitraries.just(""), codePoints(1, 3000));
        return Combinators.combine(codePoints(1, 200), payloads, Arbitraries.of(true, false), Arbitraries.integers().between(0, 3))
                .as((name, payload, payloadFirst, shape) -> {
                    String json = switch (shape) {
                        case 0 -> objectJson(name, payload, payloadFirst);
                        case 1 -> "\n { " + objectJson(name, payload, payloadFirst).substring(1) + " \r\n\t";
                        case 2 -> prettyJson(name, payload, payloadFirst);
                        default -> "{\"name\":" + quote(name) + ",\"payload\":" + (payload == null ? "null" : quote(payload)) + "}";
                    };
                    return new Body("valid", json.getBytes(StandardCharsets.UTF_8), Expect.VALID, name,
                            payload == null ? "" : payload);
                });
    }

    /** Strings of {@code min..max} Unicode code points (no lone surrogates). */
    private static Arbitrary<String> codePoints(int min, int max) {
        @SuppressWarnings("unchecked")
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                Tuple.of(10, Arbitraries.integers().between(' ', '~')),
                Tuple.of(3, Arbitraries.integers().between(0xa0, 0x7ff)),
                Tuple.of(3, Arbitraries.integers().between(0x800, 0xd7ff)),
                Tuple.of(1, Arbitraries.integers().between(0xe000, 0xfffd)),
                Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)),
                Tuple.of(1, Arbitraries.integers().between(0, 0x1f)));
        return codePoint.list().ofMinSize(min).ofMaxSize(max)
                .map(list -> list.stream().collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString());
    }

    private static Arbitrary<Body> invalidUtf8() {
        return Arbitraries.of(new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0x80},
                        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xC0, (byte) 0x80},
                        new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, new byte[] {(byte) 0xE2, (byte) 0x82},
                        new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, new byte[] {(byte) 0xFE})
                .flatMap(bad -> Arbitraries.of("name", "payload").map(member -> {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.writeBytes((member.equals("name") ? "{\"name\":\"a" : "{\"name\":\"a\",\"payload\":\"b")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.writeBytes(bad);
                    out.writeBytes("c\"}".getBytes(StandardCharsets.US_ASCII));
                    return Body.of("invalid UTF-8 in " + member, out.toByteArray(), Expect.INVALID_400);
                }));
    }

    private static Arbitrary<Body> rawControlCharacters() {
        return Combinators.combine(Arbitraries.chars().range('\u0000', '\u001f'), Arbitraries.of("name", "payload"))
                .as((c, member) -> Body.of("raw control character " + (int) c + " in " + member,
                        member.equals("name") ? "{\"name\":\"a" + c + "b\"}" : "{\"name\":\"a\",\"payload\":\"b" + c + "\"}",
                        Expect.INVALID_400));
    }

    /** Nested arrays or objects as a member's value, closed or not: a parser must refuse them, not overflow its stack. */
    private static Arbitrary<Body> deepNesting() {
        return Combinators.combine(Arbitraries.integers().between(1, 15_000), Arbitraries.of("[", "{\"a\":"),
                        Arbitraries.of(true, false), Arbitraries.of("name", "payload"))
                .as((depth, open, closed, member) -> {
                    String close = open.equals("[") ? "]" : "}";
                    String nested = open.repeat(depth) + (open.equals("[") ? "" : "1") + (closed ? close.repeat(depth) : "");
                    String json = member.equals("name") ? "{\"name\":" + nested + "}"
                            : "{\"name\":\"a\",\"payload\":" + nested + "}";
                    return Body.of((closed ? "" : "unclosed ") + "nesting " + depth + " deep in " + member, json,
                            Expect.INVALID_400);
                });
    }

    private static Arbitrary<Body> hugeNumbers() {
        Arbitrary<String> numbers = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 20_000).map(n -> "9".repeat(n)),
                Arbitraries.integers().between(1, 20_000).map(n -> "-0." + "1".repeat(n) + "e-99999"),
                Arbitraries.of("1e999999999", "-1E+2147483648", "0", "-0", "1.5", "NaN", "Infinity", "-Infinity",
                        "0x10", "01", "1e", "+1", ".5", "123456789012345678901234567890"));
        return Combinators.combine(numbers, Arbitraries.of("name", "payload")).as((number, member) -> Body.of(
                "number of " + number.length() + " characters as " + member,
                member.equals("name") ? "{\"name\":" + number + "}" : "{\"name\":\"a\",\"payload\":" + number + "}",
                Expect.INVALID_400));
    }

    private static Arbitrary<Body> wrongShapes() {
        List<String> invalid = List.of("", " ", "null", "[]", "\"a\"", "{}", "{\"payload\":\"p\"}", "{\"name\":\"\"}",
                "{\"name\":true}", "{\"name\":null}", "{\"name\":[\"a\"]}", "{\"name\":{\"a\":1}}",
                "{\"name\":\"a\",\"payload\":true}", "{\"name\":\"a\",\"payload\":[]}", "{\"name\":\"a\",\"payload\":{}}",
                "{\"name\":\"a\",\"name\":\"b\"}", "{\"name\":\"a\",\"name\":\"a\"}", "{\"name\":\"a\",\"payload\":\"x\",\"payload\":\"y\"}",
                "{\"name\":\"a\",\"payload\":null,\"payload\":\"y\"}", "{\"name\":\"a\",\"x\":1}", "{\"name\":\"a\",\"id\":\"other\"}",
                "{\"name\":\"a\",\"id\":5}", "{\"name\":\"a\"} x", "{\"name\":\"a\"}{}", "{\"name\":\"a\"", "{\"name\":\"a",
                "{\"name\":'a'}", "{name:\"a\"}", "{\"name\":\"a\",}", "{\"name\":\"a\"}]", "{\"name\":\"\\x41\"}",
                "{\"name\":\"\\u12\"}", "{\"name\":\"a\" /* c */}", "{\"Name\":\"a\"}", "{\"name\\u0000\":\"a\"}");
        List<String> open = List.of("\ufeff{\"name\":\"a\"}", "{\"name\":\"\\ud800\"}", "{\"name\":\"\\udc00x\"}",
                "{\"name\":\"a\\u0000\"}");
        return Arbitraries.oneOf(Arbitraries.of(invalid).map(json -> Body.of("wrong shape", json, Expect.INVALID_400)),
                Arbitraries.of(open).map(json -> Body.of("edge of JSON", json, Expect.ANY)));
    }

    /** Valid items of exactly n bytes around the limit, and far over it up to 1 MiB. */
    private static Arbitrary<Body> sizes() {
        Arbitrary<Integer> near = Arbitraries.integers().between(MAX_BODY - 8, MAX_BODY + 8);
        Arbitrary<Integer> over = Arbitraries.integers().between(MAX_BODY + 1, 1 << 20);
        return Arbitraries.oneOf(near, over).map(size -> {
            String prefix = "{\"name\":\"n\",\"payload\":\"";
            String payload = "p".repeat(size - prefix.length() - 2);
            byte[] bytes = (prefix + payload + "\"}").getBytes(StandardCharsets.US_ASCII);
            return size <= MAX_BODY ? new Body("valid of " + size + " bytes", bytes, Expect.VALID, "n", payload)
                    : Body.of("valid JSON of " + size + " bytes", bytes, Expect.TOO_LARGE_413);
        });
    }

    private static String objectJson(String name, String payload, boolean payloadFirst) {
        return objectNode(name, payload, payloadFirst).toString();
    }

    private static String prettyJson(String name, String payload, boolean payloadFirst) {
        try {
            return HttpProbe.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(objectNode(name, payload, payloadFirst));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode objectNode(String name, String payload, boolean payloadFirst) {
        ObjectNode node = HttpProbe.JSON.createObjectNode();
        if (payloadFirst && payload != null) {
            node.put("payload", payload);
        }
        node.put("name", name);
        if (!payloadFirst && payload != null) {
            node.put("payload", payload);
        }
        return node;
    }

    private static String quote(String s) {
        return HttpProbe.JSON.getNodeFactory().textNode(s).toString();
    }

    // ---- helpers ----

    private static byte[] item(String name, String payload) {
        return ("{\"name\":\"" + name + "\",\"payload\":\"" + payload + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static RawRequest json(String method, String id, String host, byte[] body) {
        return RawRequest.of(method, "/testbed/items/" + id, host).header("Content-Type", "application/json").body(body);
    }

    private static RawResponse get(RawClient client, String id) {
        RawResponse response = client.exchange(RawRequest.of("GET", "/testbed/items/" + id, client.host()));
        checkAnswer("GET " + id, response);
        return response;
    }

    private static void assertUnchanged(String what, RawResponse before, RawResponse after) {
        assertThat(after.status()).as("%s: still there", what).isEqualTo(200);
        assertThat(after.header("ETag")).as("%s: ETag unchanged", what).isEqualTo(before.header("ETag"));
        assertThat(after.body()).as("%s: item unchanged", what).isEqualTo(before.body());
    }

    private static String text(RawResponse response) {
        return abbreviated(new String(response.body(), StandardCharsets.UTF_8));
    }

    static String abbreviated(String s) {
        String p = printable(s);
        return p.length() > 120 ? p.substring(0, 120) + "…(" + s.length() + " chars)" : p;
    }

    /** Control characters and non-ASCII as {@code \\uXXXX}, so a report shows what was sent. */
    static String printable(String s) {
        StringBuilder out = new StringBuilder();
        s.chars().forEach(c -> {
            if (c < 32 || c >= 127) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append((char) c);
            }
        });
        return out.toString();
    }
}
