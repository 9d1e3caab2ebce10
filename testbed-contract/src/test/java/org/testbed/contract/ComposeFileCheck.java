package org.testbed.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docker/compose.yaml and docker/docker-bake.hcl against variants.conf: a variant the manifest
 * lists must be a compose service that builds that variant, has its own profile, waits for a
 * healthy memcached and points MEMCACHED_SERVERS at it; every service must be a variant, memcached
 * or load; and the bake file must build exactly the manifest's variants. Works on the compose file
 * as docker-compose renders it ({@code config}: anchors and merges resolved), so it checks what
 * compose would run.
 */
final class ComposeFileCheck {
    static final String MEMCACHED = "memcached";
    static final String LOAD = "load";
    /** The matrix list of the bake file's target "variants": {@code v = [ "a", "b", ... ]}. */
    private static final Pattern BAKE_VARIANTS = Pattern.compile("target\\s+\"variants\"\\s*\\{.*?\\bv\\s*=\\s*\\[(.*?)]",
            Pattern.DOTALL);
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    private ComposeFileCheck() {
    }

    /** What is wrong with the rendered compose configuration for these variants; empty when nothing is. */
    static List<String> composeProblems(JsonNode config, List<String> variants) {
        List<String> problems = new ArrayList<>();
        JsonNode services = config.path("services");
        for (String name : List.of(MEMCACHED, LOAD)) {
            if (!services.has(name)) {
                problems.add("service " + name + " is not defined");
            }
        }
        if (services.has(MEMCACHED) && !services.path(MEMCACHED).path("image").asText().contains(MEMCACHED)) {
            problems.add("service memcached does not run the official memcached image");
        }
        for (String variant : variants) {
            JsonNode service = services.get(variant);
            if (service == null) {
                problems.add("variant " + variant + " (variants.conf) has no service in compose.yaml");
                continue;
            }
            String built = service.path("build").path("args").path("VARIANT").asText(null);
            if (!variant.equals(built)) {
                problems.add("service " + variant + " builds VARIANT=" + built + ", not " + variant);
            }
            if (!contains(service.path("profiles"), variant)) {
                problems.add("service " + variant + " lacks the profile " + variant);
            }
            if (!"service_healthy".equals(service.path("depends_on").path(MEMCACHED).path("condition").asText(null))) {
                problems.add("service " + variant + " does not wait for a healthy memcached");
            }
            if (!environment(service.path("environment"), "MEMCACHED_SERVERS").startsWith("memcached:")) {
                problems.add("service " + variant + " does not set MEMCACHED_SERVERS=memcached:...");
            }
        }
        for (Iterator<String> names = services.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!name.equals(MEMCACHED) && !name.equals(LOAD) && !variants.contains(name)) {
                problems.add("service " + name + " is not a variant of variants.conf");
            }
        }
        return problems;
    }

    /** The variants the bake file builds, in its order; empty when it has no target "variants" list. */
    static List<String> bakeVariants(String bakeFile) {
        List<String> names = new ArrayList<>();
        Matcher list = BAKE_VARIANTS.matcher(bakeFile);
        if (list.find()) {
            Matcher name = QUOTED.matcher(list.group(1).replaceAll("(?m)#.*$", ""));
            while (name.find()) {
                names.add(name.group(1));
            }
        }
        return names;
    }

    /** A compose environment, as a map ({@code NAME: value}) or a list ({@code - NAME=value}). */
    private static String environment(JsonNode environment, String name) {
        if (environment.isObject()) {
            return environment.path(name).asText("");
        }
        for (JsonNode entry : environment) {
            String text = entry.asText();
            if (text.startsWith(name + "=")) {
                return text.substring(name.length() + 1);
            }
        }
        return "";
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode item : list) {
            if (value.equals(item.asText())) {
                return true;
            }
        }
        return false;
    }
}
