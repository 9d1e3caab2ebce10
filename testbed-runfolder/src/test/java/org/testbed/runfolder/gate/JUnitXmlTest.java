package org.testbed.runfolder.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The JUnit XML report, read back with the JDK's DOM parser. */
class JUnitXmlTest {
    @TempDir
    Path dir;

    static Document parse(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(file.toFile());
    }

    static List<Element> elements(Element parent, String name) {
        NodeList nodes = parent.getElementsByTagName(name);
        List<Element> list = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            list.add((Element) nodes.item(i));
        }
        return list;
    }

    @Test
    void oneSuiteWithItsCountsAndACasePerCheck() throws Exception {
        String tricky = "A <results/x&y> \"quoted\" 'single' \u0001bell";
        GateSuite suite = new GateSuite("testbed compare a vs b", "slower", Map.of("fail_on", "rps>5%"), List.of(
                new GateCase("vertx", "vertx mix c=64 rps", Outcome.FAILED, "slower beyond noise: B/A 0.500; " + tricky,
                        "NOT QUIET in 3 of 12 samples"),
                new GateCase("vertx", "vertx mix c=64 p99", Outcome.PASSED, "within noise: B/A 1.010", ""),
                new GateCase("vertx", "vertx delay c=400 rps", Outcome.PASSED, "faster: B/A 1.300", "one fork in A"),
                new GateCase("spring-tomcat", "spring-tomcat mix c=64 rps", Outcome.INCONCLUSIVE,
                        "no noise estimate: 1 sample(s) in A, 1 in B", "")));
        Path file = JUnitXml.write(dir.resolve("sub/compare-junit.xml"), suite);

        Document doc = parse(file);
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("testsuite");
        assertThat(root.getAttribute("name")).isEqualTo("testbed compare a vs b");
        assertThat(root.getAttribute("tests")).isEqualTo("4");
        assertThat(root.getAttribute("failures")).isEqualTo("1");
        assertThat(root.getAttribute("skipped")).isEqualTo("1");
        assertThat(root.getAttribute("errors")).isEqualTo("0");

        List<Element> cases = elements(root, "testcase");
        assertThat(cases).hasSize(4);
        assertThat(cases).extracting(c -> c.getAttribute("name")).containsExactly("vertx mix c=64 rps",
                "vertx mix c=64 p99", "vertx delay c=400 rps", "spring-tomcat mix c=64 rps");
        assertThat(cases).extracting(c -> c.getAttribute("classname")).containsExactly("vertx", "vertx", "vertx",
                "spring-tomcat");

        List<Element> failures = elements(root, "failure");
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0).getParentNode()).isSameAs(cases.get(0));
        assertThat(failures.get(0).getAttribute("message"))
                .as("escaped, read back whole; a character XML cannot hold dropped")
                .isEqualTo("slower beyond noise: B/A 0.500; A <results/x&y> \"quoted\" 'single' bell");
        assertThat(failures.get(0).getAttribute("type")).isEqualTo("slower");
        assertThat(failures.get(0).getTextContent()).contains("NOT QUIET in 3 of 12 samples");

        List<Element> skipped = elements(root, "skipped");
        assertThat(skipped).hasSize(1);
        assertThat(skipped.get(0).getParentNode()).isSameAs(cases.get(3));
        assertThat(skipped.get(0).getAttribute("message")).isEqualTo("no noise estimate: 1 sample(s) in A, 1 in B");

        assertThat(elements(cases.get(1), "system-out")).singleElement()
                .satisfies(out -> assertThat(out.getTextContent()).isEqualTo("within noise: B/A 1.010"));
        assertThat(elements(cases.get(2), "system-out")).singleElement()
                .satisfies(out -> assertThat(out.getTextContent()).isEqualTo("faster: B/A 1.300\none fork in A"));
        assertThat(elements(cases.get(3), "system-out")).isEmpty();

        assertThat(elements(root, "property")).singleElement().satisfies(p -> {
            assertThat(p.getAttribute("name")).isEqualTo("fail_on");
            assertThat(p.getAttribute("value")).isEqualTo("rps>5%");
        });
        assertThat(Files.readString(file)).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite ");
    }

    @Test
    void anEmptySuiteIsAValidReportOfNoTests() throws Exception {
        Path file = JUnitXml.write(dir.resolve("empty.xml"), new GateSuite("testbed assert r1", "assertion", Map.of(), List.of()));
        Element root = parse(file).getDocumentElement();
        assertThat(root.getAttribute("tests")).isEqualTo("0");
        assertThat(root.getAttribute("failures")).isEqualTo("0");
        assertThat(elements(root, "testcase")).isEmpty();
        assertThat(elements(root, "properties")).isEmpty();
    }

    @Test
    void aMultiLineMessageIsOneLineInItsAttribute() throws Exception {
        GateSuite suite = new GateSuite("s", "assertion", Map.of(), List.of(
                new GateCase("run", "x", Outcome.FAILED, "first\n  second", "")));
        Element failure = elements(parse(JUnitXml.write(dir.resolve("m.xml"), suite)).getDocumentElement(), "failure").get(0);
        assertThat(failure.getAttribute("message")).isEqualTo("first second");
        assertThat(failure.getTextContent()).isEqualTo("first\n  second");
    }
}
