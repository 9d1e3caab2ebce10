package org.testbed.jmeter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.testbed.scenario.Check;
import org.testbed.scenario.HttpMethod;
import org.testbed.scenario.RequestSpec;

/**
 * One HTTP sampler of a plan: what every request of one operation ({@code GET} of the mix,
 * {@code update} of the journey, ...) has in common, read from the scenario library's requests.
 * What differs from request to request (path, body, the item a response must be) comes from the
 * lane's data file, one row per request.
 *
 * @param label the operation's label, the sampler's name, as operations.csv names it
 * @param method the HTTP method
 * @param expectedStatus the only status that counts as success
 * @param sendsBody whether its requests carry a JSON body (the row's {@code body})
 * @param checks what the response must also show, in the scenario library's order
 * @param captureEtag keep the response's ETag in the thread's {@code etag} variable
 * @param sendIfMatch send {@code If-Match} with the thread's {@code etag}
 */
record OperationSampler(String label, HttpMethod method, int expectedStatus, boolean sendsBody, List<Assertion> checks,
                        boolean captureEtag, boolean sendIfMatch) {

    /** A response check as JMeter makes it. */
    sealed interface Assertion {
    }

    /** The response carries this header. */
    record HeaderPresent(String name) implements Assertion {
    }

    /** The body is exactly the row's {@code expected} column (the item as last written: read-your-writes). */
    record BodyIsRowItem() implements Assertion {
    }

    /** The body is exactly this text. */
    record BodyEquals(String text) implements Assertion {
    }

    /** The body is a JSON object whose member {@code field} is the string {@code value}. */
    record JsonField(String field, String value) implements Assertion {
    }

    /** The sampler every request of {@code label} needs, read from one of them. */
    static OperationSampler of(String label, RequestSpec spec) {
        List<Assertion> checks = new ArrayList<>();
        for (Check check : spec.checks()) {
            checks.add(assertionFor(check));
        }
        return new OperationSampler(label, spec.method(), spec.expectedStatus(), spec.hasBody(), List.copyOf(checks),
                spec.captureEtag(), spec.sendIfMatch());
    }

    /** The check as JMeter makes it (an if chain: a pattern switch over the sealed type needs Java 21). */
    private static Assertion assertionFor(Check check) {
        if (check instanceof Check.HeaderPresent h) {
            return new HeaderPresent(h.name());
        }
        if (check instanceof Check.ItemIs) {
            return new BodyIsRowItem();
        }
        if (check instanceof Check.BodyEquals b) {
            return new BodyEquals(new String(b.expected(), StandardCharsets.UTF_8));
        }
        if (check instanceof Check.JsonStringField j) {
            return new JsonField(j.field(), j.value());
        }
        throw new IllegalArgumentException("no JMeter assertion for the check " + check);
    }

    /** Whether the rows of this operation carry the item its response must be. */
    boolean checksRowItem() {
        return checks.stream().anyMatch(c -> c instanceof BodyIsRowItem);
    }
}
