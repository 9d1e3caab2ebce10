package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of {@link ComposeFileCheck} on a small rendered configuration: one wrong thing at a time must be named. */
class ComposeFileCheckTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String GOOD = """
            services:
              memcached:
                image: memcached:1.6
              load:
                image: testbed/load:latest
              vertx:
                build: {args: {VARIANT: vertx}}
                profiles: [vertx, all]
                depends_on: {memcached: {condition: service_healthy}}
                environment: {MEMCACHED_SERVERS: "memcached:11211"}
            """;

    @Test
    void aCorrectConfigurationHasNoProblem() throws IOException {
        assertThat(ComposeFileCheck.composeProblems(yaml(GOOD), List.of("vertx"))).isEmpty();
    }

    @Test
    void eachBrokenRuleIsNamed() throws IOException {
        assertThat(problems(GOOD.replace("VARIANT: vertx", "VARIANT: jetty-handler")))
                .containsExactly("service vertx builds VARIANT=jetty-handler, not vertx");
        assertThat(problems(GOOD.replace("[vertx, all]", "[all]"))).containsExactly("service vertx lacks the profile vertx");
        assertThat(problems(GOOD.replace("service_healthy", "service_started")))
                .containsExactly("service vertx does not wait for a healthy memcached");
        assertThat(problems(GOOD.replace("{MEMCACHED_SERVERS: \"memcached:11211\"}", "[MEMCACHED_SERVERS=127.0.0.1:11211]")))
                .containsExactly("service vertx does not set MEMCACHED_SERVERS=memcached:...");
        assertThat(problems(GOOD.replace("image: memcached:1.6", "image: redis:7")))
                .containsExactly("service memcached does not run the official memcached image");
        assertThat(problems(GOOD.replace("  load:\n    image: testbed/load:latest\n", "")))
                .containsExactly("service load is not defined");
        assertThat(problems(GOOD + "  extra:\n    image: x\n")).containsExactly("service extra is not a variant of variants.conf");
    }

    @Test
    void aVariantOfTheManifestWithoutAServiceIsNamed() throws IOException {
        assertThat(ComposeFileCheck.composeProblems(yaml(GOOD), List.of("vertx", "new-one")))
                .containsExactly("variant new-one (variants.conf) has no service in compose.yaml");
    }

    @Test
    void theBakeVariantsAreTheMatrixListOfTargetVariants() {
        String bake = """
                target "other" {
                  v = ["not-this"]
                }
                target "variants" {
                  name = v
                  matrix = {
                    # a comment with "quotes"
                    v = [
                      "spring-tomcat",
                      "vertx",
                    ]
                  }
                }
                """;
        assertThat(ComposeFileCheck.bakeVariants(bake)).containsExactly("spring-tomcat", "vertx");
        assertThat(ComposeFileCheck.bakeVariants("target \"load\" {}")).isEmpty();
    }

    private static List<String> problems(String config) throws IOException {
        return ComposeFileCheck.composeProblems(yaml(config), List.of("vertx"));
    }

    private static JsonNode yaml(String text) throws IOException {
        return YAML.readTree(text);
    }
}
