package org.testbed.variant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class VariantManifestTest {
    @Test
    void readsColumnsAndKeepsTheDescriptionWhole() throws IOException {
        VariantManifest manifest = VariantManifest.parse(new StringReader("""
                # comment
                a   mod-a  mod-a/target/a.jar  sync     17  First variant, with spaces
                b   mod-b  mod-b/target/b.jar  virtual  21  Second
                """), "test");
        assertThat(manifest.variants()).hasSize(2);
        assertThat(manifest.find("a").description()).isEqualTo("First variant, with spaces");
        assertThat(manifest.find("b").minJdk()).isEqualTo(21);
        assertThatThrownBy(() -> manifest.find("c")).hasMessageContaining("a, b");
    }

    @Test
    void theBundledManifestListsRealVariants() {
        assertThat(VariantManifest.bundled().variants()).extracting(Variant::name).contains("spring-tomcat");
    }

    @Test
    void malformedLinesAreReportedWithTheirNumber() {
        assertThatThrownBy(() -> VariantManifest.parse(new StringReader("x y\n"), "f"))
                .hasMessageContaining("f:1");
    }
}
