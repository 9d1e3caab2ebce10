package org.testbed.runfolder.flame;

import org.testbed.runfolder.EnvironmentFile;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.testbed.runfolder.report.ReportWriter;

/**
 * A flame graph page that opens offline (data and a small SVG renderer inlined): of one profile
 * (the user and kernel views of a CPU flame graph), or of two, differential: B's flame graph with
 * each frame coloured by the change of its share from A (red: more of the time goes through it,
 * blue: less), and a table of the frames whose self time changed most.
 */
public final class FlameGraphHtml {
    /** Frames below this share of both profiles are not drawn (their time stays in their callers). */
    static final double MIN_SHARE = 0.001;
    private static final int TOP_FRAMES = 30;

    private FlameGraphHtml() {
    }

    /** One profile. */
    public static Path write(Path file, String title, CollapsedStacks profile, String note) throws IOException {
        return page(file, title, note, null, profile);
    }

    /** B coloured by its change from A. */
    public static Path writeDiff(Path file, String title, CollapsedStacks a, CollapsedStacks b, String note) throws IOException {
        return page(file, title, note, a, b);
    }

    private static Path page(Path file, String title, String note, CollapsedStacks a, CollapsedStacks b) throws IOException {
        FlameTree tree = FlameTree.diff(a, b);
        ObjectNode data = EnvironmentFile.JSON.createObjectNode();
        data.put("title", title);
        data.put("note", note);
        data.put("diff", a != null);
        data.set("root", tree.json(MIN_SHARE, tree.a(), tree.b()));
        ArrayNode top = data.putArray("top");
        for (FlameTree.SelfChange c : tree.topSelfChanges(TOP_FRAMES)) {
            ObjectNode n = top.addObject();
            n.put("frame", c.frame());
            if (a != null) {
                n.put("a", c.shareA());
            }
            n.put("b", c.shareB());
        }
        // Compact: a profile has thousands of frames.
        String json = EnvironmentFile.JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(data).replace("</", "<\\/").replace("<!--", "<\\!--");
        String html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
                + ReportWriter.escape(title) + "</title>\n<style>\n" + resource("flame.css") + "</style>\n</head>\n"
                + "<body data-render=\"pending\">\n<h1>" + ReportWriter.escape(title) + "</h1>\n"
                + "<p id=\"note\"></p>\n<div id=\"controls\"></div>\n<div id=\"graph\"></div>\n<div id=\"top\"></div>\n"
                + "<pre id=\"render-errors\" hidden></pre>\n"
                + "<script type=\"application/json\" id=\"data\">" + json + "</script>\n"
                + "<script>\n" + resource("flame.js") + "</script>\n</body>\n</html>\n";
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, html, StandardCharsets.UTF_8);
        return file;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = FlameGraphHtml.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
