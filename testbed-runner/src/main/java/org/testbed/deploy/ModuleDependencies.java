package org.testbed.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/** Which modules of the repository a module's jar is built from, read from the poms. */
final class ModuleDependencies {
    private static final String GROUP = "org.testbed";

    private ModuleDependencies() {
    }

    /**
     * {@code module} and every module of this repository it depends on for its main code, directly
     * or not: dependencies of group org.testbed, neither test-scoped nor {@code type=pom} (those
     * only order the build), whose folder at the root holds a pom.
     */
    static Set<String> behind(Path root, String module) {
        Set<String> modules = new LinkedHashSet<>();
        Deque<String> next = new ArrayDeque<>();
        next.add(module);
        while (!next.isEmpty()) {
            String current = next.poll();
            if (!modules.add(current)) {
                continue;
            }
            Path pom = root.resolve(current).resolve("pom.xml");
            if (Files.isRegularFile(pom)) {
                for (String dependency : repositoryDependencies(pom)) {
                    if (Files.isRegularFile(root.resolve(dependency).resolve("pom.xml"))) {
                        next.add(dependency);
                    }
                }
            }
        }
        return modules;
    }

    private static Set<String> repositoryDependencies(Path pom) {
        Set<String> names = new LinkedHashSet<>();
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            Element project = factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
            Element dependencies = child(project, "dependencies");
            if (dependencies == null) {
                return names;
            }
            NodeList list = dependencies.getChildNodes();
            for (int i = 0; i < list.getLength(); i++) {
                if (list.item(i) instanceof Element dependency && "dependency".equals(dependency.getTagName())
                        && GROUP.equals(text(dependency, "groupId")) && !"test".equals(text(dependency, "scope"))
                        && !"pom".equals(text(dependency, "type"))) {
                    names.add(text(dependency, "artifactId"));
                }
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pom, e);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot parse " + pom + ": " + e.getMessage(), e);
        }
    }

    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && name.equals(element.getTagName())) {
                return element;
            }
        }
        return null;
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().strip();
    }
}
