package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.testbed.contract.VariantStartupIT.Outcome;
import org.testbed.variant.Jdks;

/**
 * Every variant that needs a JDK newer than 17 (virtual threads: 21) refuses to start on an older
 * one, with exit status 2 and a message naming the JDK it needs, instead of quietly serving on
 * platform threads. One test per such variant of {@code variants.conf}.
 */
class OlderJdkRefusalIT {

    @TestFactory
    Stream<DynamicTest> variantsNeedingANewerJdkRefuseAnOlderOne() {
        return ContractVariants.selected().stream().filter(variant -> variant.minJdk() > 17)
                .map(variant -> DynamicTest.dynamicTest(variant.name() + " refuses JDK < " + variant.minJdk(), () -> {
                    Optional<Path> older = Jdks.javaOlderThan(variant.minJdk());
                    assumeTrue(older.isPresent(), "no JDK older than " + variant.minJdk() + " is installed to try it on");
                    Outcome refused = VariantStartupIT.run(variant, older.get(), "--port", "0", "--host", "127.0.0.1");
                    assertThat(refused.exitCode()).as(refused.output()).isEqualTo(2);
                    assertThat(refused.output()).contains("JDK " + variant.minJdk()).doesNotContain("listening on");
                }));
    }
}
