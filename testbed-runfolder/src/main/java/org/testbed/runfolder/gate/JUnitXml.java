package org.testbed.runfolder.gate;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.testbed.runfolder.Csv;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * A {@link GateSuite} as a JUnit XML report, the format CI systems read test results from (the
 * one Maven's Surefire writes): one {@code <testsuite>} with its counts, its properties, and one
 * {@code <testcase>} per check. A failed check holds a {@code <failure>} whose message says why; an
 * inconclusive one a {@code <skipped>} with the reason, so it is never counted as passed; a
 * check's further lines (the caveats of the step) are its {@code <system-out>}. No check is an
 * error ({@code errors="0"}) and none has a duration ({@code time="0"}): they read a run folder,
 * they do not run anything.
 *
 * <p>Written with the JDK's DOM and transformer, which escape what XML needs escaped; characters
 * XML 1.0 cannot carry at all (control characters other than tab and line breaks) are dropped.
 * The file is replaced through a move, as the run folder's CSV files are.
 */
public final class JUnitXml {
    private JUnitXml() {
    }

    /** Writes {@code suite} to {@code file}, replacing it. */
    public static Path write(Path file, GateSuite suite) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Csv.replace(file, text(suite));
        return file;
    }

    /** The report as text. */
    public static String text(GateSuite suite) {
        Document doc;
        try {
            doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser cannot be configured: " + e.getMessage(), e);
        }
        Element root = doc.createElement("testsuite");
        root.setAttribute("name", clean(suite.name()));
        root.setAttribute("tests", Integer.toString(suite.cases().size()));
        root.setAttribute("failures", Long.toString(suite.count(Outcome.FAILED)));
        root.setAttribute("errors", "0");
        root.setAttribute("skipped", Long.toString(suite.count(Outcome.INCONCLUSIVE)));
        root.setAttribute("time", "0");
        doc.appendChild(root);
        if (!suite.properties().isEmpty()) {
            Element properties = doc.createElement("properties");
            for (Map.Entry<String, String> p : suite.properties().entrySet()) {
                Element property = doc.createElement("property");
                property.setAttribute("name", clean(p.getKey()));
                property.setAttribute("value", clean(p.getValue()));
                properties.appendChild(property);
            }
            root.appendChild(properties);
        }
        for (GateCase c : suite.cases()) {
            Element testcase = doc.createElement("testcase");
            testcase.setAttribute("classname", clean(c.classname()));
            testcase.setAttribute("name", clean(c.name()));
            testcase.setAttribute("time", "0");
            switch (c.outcome()) {
                case FAILED -> {
                    Element failure = doc.createElement("failure");
                    failure.setAttribute("message", clean(oneLine(c.message())));
                    failure.setAttribute("type", clean(suite.failureType()));
                    failure.setTextContent(clean(c.output().isEmpty() ? c.message() : c.message() + "\n" + c.output()));
                    testcase.appendChild(failure);
                }
                case INCONCLUSIVE -> {
                    Element skipped = doc.createElement("skipped");
                    skipped.setAttribute("message", clean(oneLine(c.message())));
                    testcase.appendChild(skipped);
                }
                case PASSED -> {
                    // a passed case is the test case alone; what it measured goes to its output
                }
            }
            String out = c.outcome() == Outcome.PASSED
                    ? (c.output().isEmpty() ? c.message() : c.message() + "\n" + c.output())
                    : c.output();
            if (!out.isEmpty()) {
                Element systemOut = doc.createElement("system-out");
                systemOut.setTextContent(clean(out));
                testcase.appendChild(systemOut);
            }
            root.appendChild(testcase);
        }
        try {
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            t.setOutputProperty(OutputKeys.INDENT, "yes");
            t.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
            // The declaration written here: the JDK's own puts the root element on its line.
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter out = new StringWriter().append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            t.transform(new DOMSource(doc), new StreamResult(out));
            String xml = out.toString();
            return xml.endsWith("\n") ? xml : xml + "\n";
        } catch (TransformerException e) {
            throw new IllegalStateException("the JDK's XML transformer failed: " + e.getMessage(), e);
        }
    }

    /** Line breaks as spaces: a message attribute is one line. */
    private static String oneLine(String s) {
        return s.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    /** {@code s} without the characters XML 1.0 cannot hold (most control characters, lone surrogates, U+FFFE/F). */
    static String clean(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            boolean allowed = cp == 0x9 || cp == 0xA || cp == 0xD
                    || cp >= 0x20 && cp <= 0xD7FF
                    || cp >= 0xE000 && cp <= 0xFFFD
                    || cp >= 0x10000 && cp <= 0x10FFFF;
            if (allowed) {
                out.appendCodePoint(cp);
            }
        }
        return out.toString();
    }
}
