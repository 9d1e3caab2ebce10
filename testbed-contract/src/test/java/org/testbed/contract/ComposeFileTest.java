package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;

/**
 * The compose file validates ({@code docker-compose config -q}: Debian's docker-compose 1.29 needs
 * no Docker engine; {@code docker compose} v2 where that is what is installed), and it and the bake
 * file hold exactly the variants of variants.conf ({@link ComposeFileCheck}). A new variant needs a
 * service block in docker/compose.yaml and a line in docker/docker-bake.hcl. Without a compose
 * tool this fails, saying what to install.
 */
@Tag("process")
class ComposeFileTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final long COMPOSE_LIMIT_SECONDS = 60;

    private static Path root;
    private static Path composeFile;
    private static List<String> compose;
    private static List<String> variants;

    @BeforeAll
    static void findComposeAndVariants() throws Exception {
        root = ContractVariants.repositoryRoot();
        composeFile = root.resolve("docker/compose.yaml");
        variants = VariantManifest.load(root.resolve(VariantManifest.FILE_NAME)).variants().stream().map(Variant::name).toList();
        compose = composeTool();
        assertThat(compose).as("docker-compose or 'docker compose' (Debian: apt-get install --no-install-recommends"
                + " docker-compose)").isNotEmpty();
    }

    @Test
    void theComposeFileValidates() throws Exception {
        Result result = compose("config", "-q");
        assertThat(result.exitCode()).as(String.join(" ", compose) + " config -q: " + result.output()).isZero();
    }

    @Test
    void everyVariantIsAServiceThatBuildsItAndWaitsForMemcachedAndNothingElseIs() throws Exception {
        assertThat(ComposeFileCheck.composeProblems(rendered(variants), variants)).isEmpty();
    }

    @Test
    void theBakeFileBuildsTheVariantsOfTheManifest() throws IOException {
        List<String> bake = ComposeFileCheck.bakeVariants(Files.readString(root.resolve("docker/docker-bake.hcl")));
        assertThat(bake).as("the variants of docker-bake.hcl").containsExactlyInAnyOrderElementsOf(variants);
    }

    /** The check itself: a variant added only to variants.conf must fail it, for compose and for bake. */
    @Test
    void aVariantAddedOnlyToTheManifestFailsTheCheck() throws Exception {
        List<String> more = new ArrayList<>(variants);
        more.add("added-only-to-variants-conf");
        assertThat(ComposeFileCheck.composeProblems(rendered(more), more))
                .containsExactly("variant added-only-to-variants-conf (variants.conf) has no service in compose.yaml");
        assertThat(ComposeFileCheck.bakeVariants(Files.readString(root.resolve("docker/docker-bake.hcl"))))
                .doesNotContain("added-only-to-variants-conf");
    }

    /** The configuration as compose renders it, with every variant's profile and load's active (v2 leaves out inactive ones). */
    private static JsonNode rendered(List<String> names) throws Exception {
        List<String> args = new ArrayList<>(List.of("--profile", ComposeFileCheck.LOAD));
        for (String name : names) {
            args.addAll(List.of("--profile", name));
        }
        args.add("config");
        Result result = compose(args.toArray(String[]::new));
        assertThat(result.exitCode()).as("compose config: " + result.output()).isZero();
        return YAML.readTree(result.output());
    }

    private record Result(int exitCode, String output) {
    }

    private static Result compose(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(compose);
        command.addAll(List.of("-f", composeFile.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("compose", ".out");
        Path err = Files.createTempFile("compose", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(COMPOSE_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IOException(String.join(" ", command) + " did not finish in " + COMPOSE_LIMIT_SECONDS + " s");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            return new Result(p.exitValue(), p.exitValue() == 0 ? stdout : stdout + Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** {@code docker-compose} when installed, else {@code docker compose} when it answers, else none. */
    private static List<String> composeTool() throws InterruptedException {
        for (List<String> candidate : List.of(List.of("docker-compose"), List.of("docker", "compose"))) {
            try {
                List<String> version = new ArrayList<>(candidate);
                version.add("version");
                Process p = new ProcessBuilder(version).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (p.waitFor(COMPOSE_LIMIT_SECONDS, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return candidate;
                }
                p.destroyForcibly();
            } catch (IOException e) {
                // not installed: try the next
            }
        }
        return List.of();
    }
}
