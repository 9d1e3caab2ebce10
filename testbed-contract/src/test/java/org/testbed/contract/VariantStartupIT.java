package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;

/**
 * How each variant's jar behaves before it serves anything: {@code --help} documents every
 * setting and a bad flag is a clear error. See {@link OlderJdkRefusalIT} for the JDK check.
 */
@ParallelSafe
@ParameterizedClass
@MethodSource("org.testbed.contract.ContractVariants#arguments")
class VariantStartupIT {
    private final Variant variant;

    VariantStartupIT(Variant variant) {
        this.variant = variant;
    }

    record Outcome(int exitCode, String output) {
    }

    private Outcome run(Path java, String... args) throws IOException, InterruptedException {
        return run(variant, java, args);
    }

    static Outcome run(Variant variant, Path java, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(java.toString(), "-jar",
                variant.jarIn(ContractVariants.repositoryRoot()).toString(), "--mode", variant.mode()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(variant.name() + " did not exit: " + command);
        }
        return new Outcome(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private Path java() {
        return Jdks.javaFor(variant.minJdk()).orElseThrow(() -> new IllegalStateException(Jdks.missing(variant.minJdk())));
    }

    @Test
    void helpListsEverySettingAndExitsZero() throws Exception {
        Outcome help = run(java(), "--help");
        assertThat(help.exitCode()).as(help.output()).isZero();
        for (String setting : List.of("--host", "TESTBED_HOST", "--port", "TESTBED_PORT", "--mode", "TESTBED_MODE",
                "--threads", "TESTBED_THREADS", "--tls", "TESTBED_TLS", "--max-body", "TESTBED_MAX_BODY",
                "--memcached-servers", "MEMCACHED_SERVERS", "--memcached-timeout-ms", "MEMCACHED_TIMEOUT_MS")) {
            assertThat(help.output()).contains(setting);
        }
    }

    @Test
    void aBadFlagIsAClearErrorWithExitCode2() throws Exception {
        Outcome bad = run(java(), "--port", "not-a-port");
        assertThat(bad.exitCode()).as(bad.output()).isEqualTo(2);
        assertThat(bad.output()).contains("--port").doesNotContain("\tat ");
    }

}
