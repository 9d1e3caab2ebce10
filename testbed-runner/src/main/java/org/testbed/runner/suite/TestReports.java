package org.testbed.runner.suite;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * What a module's tests did, read from the XML reports Surefire and Failsafe write
 * ({@code target/surefire-reports/TEST-*.xml}, {@code target/failsafe-reports/TEST-*.xml}): one
 * {@code <testsuite>} per test class, whose attributes count its tests, failures, errors and skipped
 * tests and its time. Only its root element is read (a report carries the tests' output after it).
 * Reports older than the build are left out: a module Maven skipped keeps the reports of an earlier
 * build, which are not this build's.
 *
 * @param tests test cases run (skipped ones included, as Surefire counts them)
 * @param failures assertions that failed
 * @param errors tests that threw something else
 * @param skipped tests skipped or disabled
 * @param seconds the suites' time added up
 * @param reports the report files read
 */
public record TestReports(long tests, long failures, long errors, long skipped, double seconds, int reports) {
    public static final TestReports NONE = new TestReports(0, 0, 0, 0, 0, 0);
    /** The report folders of a module, Surefire's (unit tests) and Failsafe's (integration tests). */
    static final List<Path> FOLDERS = List.of(Path.of("target", "surefire-reports"), Path.of("target", "failsafe-reports"));

    /** Whether any test failed or erred. */
    public boolean failed() {
        return failures + errors > 0;
    }

    public TestReports and(TestReports other) {
        return new TestReports(tests + other.tests, failures + other.failures, errors + other.errors,
                skipped + other.skipped, seconds + other.seconds, reports + other.reports);
    }

    /** The reports of the module in {@code moduleDir} written at or after {@code since}. */
    public static TestReports of(Path moduleDir, FileTime since) throws IOException {
        TestReports all = NONE;
        for (Path folder : FOLDERS) {
            Path dir = moduleDir.resolve(folder);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            List<Path> files;
            try (Stream<Path> list = Files.list(dir)) {
                files = list.filter(p -> p.getFileName().toString().startsWith("TEST-")
                        && p.getFileName().toString().endsWith(".xml")).sorted().toList();
            }
            for (Path file : files) {
                if (Files.getLastModifiedTime(file).compareTo(since) >= 0) {
                    all = all.and(read(file));
                }
            }
        }
        return all;
    }

    /** One report: its {@code <testsuite>}'s counts. */
    static TestReports read(Path file) throws IOException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader xml = factory.createXMLStreamReader(in);
            try {
                while (xml.hasNext()) {
                    if (xml.next() == XMLStreamConstants.START_ELEMENT) {
                        if (!xml.getLocalName().equals("testsuite")) {
                            throw new IOException(file + " is no test report: its root is <" + xml.getLocalName() + ">");
                        }
                        return new TestReports(count(xml, "tests", file), count(xml, "failures", file),
                                count(xml, "errors", file), count(xml, "skipped", file), seconds(xml, file), 1);
                    }
                }
                throw new IOException(file + " is empty");
            } finally {
                xml.close();
            }
        } catch (XMLStreamException e) {
            throw new IOException(file + " is no test report: " + e.getMessage(), e);
        }
    }

    private static long count(XMLStreamReader xml, String name, Path file) throws IOException {
        String value = xml.getAttributeValue(null, name);
        try {
            return value == null || value.isBlank() ? 0 : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IOException(file + ": " + name + "=\"" + value + "\" is no count", e);
        }
    }

    /** The suite's time: Surefire writes seconds with a dot, and a thousands comma in some locales. */
    private static double seconds(XMLStreamReader xml, Path file) throws IOException {
        String value = xml.getAttributeValue(null, "time");
        try {
            return value == null || value.isBlank() ? 0 : Double.parseDouble(value.strip().replace(",", ""));
        } catch (NumberFormatException e) {
            throw new IOException(file + ": time=\"" + value + "\" is no time", e);
        }
    }
}
