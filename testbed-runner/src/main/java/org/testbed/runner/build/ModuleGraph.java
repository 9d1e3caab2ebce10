package org.testbed.runner.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The repository's Maven modules and the sibling modules each one is built from, read from the poms
 * (the root pom's {@code <module>} list, each module's {@code <parent>} and non-test
 * {@code <dependency>} artifactIds). Read rather than listed by hand, so that splitting or renaming a
 * module changes nothing here.
 */
public final class ModuleGraph {
    private final Path root;
    /** Module directory to the directories of the sibling modules it depends on directly. */
    private final Map<String, List<String>> dependencies;

    private ModuleGraph(Path root, Map<String, List<String>> dependencies) {
        this.root = root;
        this.dependencies = dependencies;
    }

    public static ModuleGraph read(Path root) {
        Map<String, String> directoryOfArtifact = new LinkedHashMap<>();
        Map<String, Element> poms = new LinkedHashMap<>();
        for (String module : texts(parse(root.resolve("pom.xml")).getDocumentElement(), "module")) {
            Path pom = root.resolve(module).resolve("pom.xml");
            if (Files.isRegularFile(pom)) {
                Element project = parse(pom).getDocumentElement();
                poms.put(module, project);
                directoryOfArtifact.put(childText(project, "artifactId"), module);
            }
        }
        Map<String, List<String>> dependencies = new LinkedHashMap<>();
        poms.forEach((module, project) -> {
            List<String> siblings = new ArrayList<>();
            Element parent = child(project, "parent");
            if (parent != null && directoryOfArtifact.containsKey(childText(parent, "artifactId"))) {
                siblings.add(directoryOfArtifact.get(childText(parent, "artifactId")));
            }
            Element list = child(project, "dependencies");
            for (Element dependency : list == null ? List.<Element>of() : children(list, "dependency")) {
                String module2 = directoryOfArtifact.get(childText(dependency, "artifactId"));
                // A test dependency orders the reactor but puts nothing into the jar.
                if (module2 != null && !"test".equals(childText(dependency, "scope"))) {
                    siblings.add(module2);
                }
            }
            dependencies.put(module, List.copyOf(siblings));
        });
        return new ModuleGraph(root, dependencies);
    }

    public Path root() {
        return root;
    }

    public boolean contains(String module) {
        return dependencies.containsKey(module);
    }

    /** The module and every sibling module it depends on, directly or not. */
    public Set<String> closure(String module) {
        if (!contains(module)) {
            throw new IllegalArgumentException("no module '" + module + "' in " + root.resolve("pom.xml")
                    + "; modules: " + dependencies.keySet());
        }
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> queue = new ArrayDeque<>(List.of(module));
        while (!queue.isEmpty()) {
            String next = queue.removeFirst();
            if (seen.add(next)) {
                queue.addAll(dependencies.getOrDefault(next, List.of()));
            }
        }
        return seen;
    }

    /**
     * What the jars of {@code modules} are built from: the root pom, variants.conf, and the pom and
     * {@code src/main} folder of each module and of every sibling module it depends on, each once, in a
     * fixed order. What {@link StaleJars} compares the jars' times with and {@link SourceFingerprint}
     * hashes; a path may not exist (a module without sources of its own).
     */
    public Set<Path> sourcesOf(Collection<String> modules) {
        Set<String> all = new TreeSet<>();
        for (String module : modules) {
            all.addAll(closure(module));
        }
        Set<Path> sources = new LinkedHashSet<>(List.of(root.resolve("pom.xml"), root.resolve("variants.conf")));
        for (String module : all) {
            sources.add(root.resolve(module).resolve("pom.xml"));
            sources.add(root.resolve(module).resolve("src").resolve("main"));
        }
        return sources;
    }

    private static Document parse(Path pom) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            // A pom needs no DTDs or external entities; refusing them keeps parsing local and safe.
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            return factory.newDocumentBuilder().parse(pom.toFile());
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalStateException("cannot read " + pom + ": " + e.getMessage(), e);
        }
    }

    private static List<String> texts(Element root, String tag) {
        List<String> texts = new ArrayList<>();
        var nodes = root.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent().strip());
        }
        return texts;
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && tag.equals(element.getTagName())) {
                found.add(element);
            }
        }
        return found;
    }

    private static Element child(Element parent, String tag) {
        List<Element> found = children(parent, tag);
        return found.isEmpty() ? null : found.get(0);
    }

    private static String childText(Element parent, String tag) {
        Element element = child(parent, tag);
        return element == null ? null : element.getTextContent().strip();
    }
}
