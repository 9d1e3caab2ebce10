package org.testbed.jmeter;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Writes the XML of a JMeter plan (.jmx), the format JMeter's SaveService reads: each test element
 * is followed by a {@code hashTree} holding its children. Text only, no JMeter classes, so that
 * the runner can write plans without carrying JMeter on its own classpath.
 */
final class JmxWriter {
    private final StringBuilder out = new StringBuilder(16 * 1024);
    private final Deque<String> open = new ArrayDeque<>();

    JmxWriter(String jmeterVersion) {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        start("jmeterTestPlan", "version", "1.2", "properties", "5.0", "jmeter", jmeterVersion);
        start("hashTree");
    }

    /** Opens a test element of class {@code testClass} (its GUI class {@code guiClass}) named {@code name}. */
    JmxWriter element(String testClass, String guiClass, String name) {
        return start(testClass, "guiclass", guiClass, "testclass", testClass, "testname", name);
    }

    /** Opens a nested element property ({@code elementProp}). */
    JmxWriter elementProp(String name, String elementType) {
        return start("elementProp", "name", name, "elementType", elementType);
    }

    /** Opens a collection property ({@code collectionProp}). */
    JmxWriter collection(String name) {
        return start("collectionProp", "name", name);
    }

    JmxWriter string(String name, String value) {
        return leaf("stringProp", name, value);
    }

    JmxWriter bool(String name, boolean value) {
        return leaf("boolProp", name, Boolean.toString(value));
    }

    JmxWriter integer(String name, int value) {
        return leaf("intProp", name, Integer.toString(value));
    }

    /** Closes the innermost open element. */
    JmxWriter end() {
        String tag = open.pop();
        indent();
        out.append("</").append(tag).append(">\n");
        return this;
    }

    /** Opens the {@code hashTree} of the element just closed: its children follow. */
    JmxWriter children() {
        return start("hashTree");
    }

    /** An element with no children is followed by an empty {@code hashTree}. */
    JmxWriter noChildren() {
        indent();
        out.append("<hashTree/>\n");
        return this;
    }

    /** The document, every element closed. */
    String text() {
        while (!open.isEmpty()) {
            end();
        }
        return out.toString();
    }

    private JmxWriter start(String tag, String... attributes) {
        indent();
        out.append('<').append(tag);
        for (int i = 0; i < attributes.length; i += 2) {
            out.append(' ').append(attributes[i]).append("=\"").append(escape(attributes[i + 1])).append('"');
        }
        out.append(">\n");
        open.push(tag);
        return this;
    }

    private JmxWriter leaf(String tag, String name, String value) {
        indent();
        out.append('<').append(tag).append(" name=\"").append(escape(name)).append("\">").append(escape(value))
                .append("</").append(tag).append(">\n");
        return this;
    }

    private void indent() {
        out.append("  ".repeat(open.size()));
    }

    /** XML text and attribute escaping; a tab or line break is kept as a character reference so that it survives attribute normalisation. */
    static String escape(String s) {
        StringBuilder e = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> e.append("&amp;");
                case '<' -> e.append("&lt;");
                case '>' -> e.append("&gt;");
                case '"' -> e.append("&quot;");
                case '\t' -> e.append("&#9;");
                case '\n' -> e.append("&#10;");
                case '\r' -> e.append("&#13;");
                default -> e.append(c);
            }
        }
        return e.toString();
    }
}
