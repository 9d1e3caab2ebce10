package org.testbed.runner.suite;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** The two things the test summary reads of a pom: its own artifactId, and its modules. */
public final class PomFile {
    private PomFile() {
    }

    /** The project's own {@code artifactId} (not its parent's). */
    public static String artifactId(Path pom) throws IOException {
        for (Element child : children(project(pom))) {
            if (child.getTagName().equals("artifactId")) {
                return child.getTextContent().strip();
            }
        }
        throw new IOException(pom + " has no artifactId");
    }

    /** The {@code <modules>} it lists, in order (folders relative to it). */
    public static List<String> modules(Path pom) throws IOException {
        List<String> modules = new ArrayList<>();
        for (Element child : children(project(pom))) {
            if (child.getTagName().equals("modules")) {
                for (Element module : children(child)) {
                    modules.add(module.getTextContent().strip());
                }
            }
        }
        return modules;
    }

    private static Element project(Path pom) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(pom + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static List<Element> children(Element parent) {
        List<Element> children = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                children.add(e);
            }
        }
        return children;
    }
}
