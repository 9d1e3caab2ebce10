package org.testbed.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No file of the repository points at a document that is not in it: every Markdown document a
 * tracked text file names (a word ending in {@code .md}, with or without a path) and every relative
 * link of a Markdown file (with its {@code #anchor}, when it points into a Markdown file) must
 * resolve to a file of the repository.
 *
 * <p>A name is looked up beside the file that names it, then from the repository root, then from
 * the root of the file's module, so {@code README.md} in a module's source means that module's
 * README and {@code docs/CONTRACT.md} means the same file from anywhere. A Markdown link resolves
 * from its file's folder only, as a Markdown viewer resolves it.
 */
class DocumentLinksTest {
    /** A Markdown document's name: path characters ending in .md, not inside a URL or a longer word. */
    private static final Pattern DOCUMENT_NAME = Pattern.compile(
            "(?<![A-Za-z0-9_.:/~%-])((?:\\.{1,2}/)*(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\\.md)(?![A-Za-z0-9_])");
    /** An inline Markdown link or image: [text](target) or [text](target "title"). */
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\[[^\\]\\n]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    /**
     * Markdown files a run writes into its run folder (the run's and a compare's answer): named in the
     * documentation and the code as what a run folder holds, never as documents of the repository.
     */
    private static final Set<String> RUN_FOLDER_FILES = Set.of("summary.md", "compare-summary.md");

    private final Path root = ContractVariants.repositoryRoot();

    @Test
    void everyDocumentNamedAndLinkedExists() throws IOException, InterruptedException {
        Set<String> files = trackedFiles(root);
        assertThat(files).as("tracked files of %s", root).contains("README.md", "docs/DESIGN.md", "docs/CONTRACT.md");
        List<String> problems = new ArrayList<>();
        for (String file : files) {
            String text = readText(root.resolve(file));
            if (text != null) {
                problems.addAll(problems(file, text, files, this::readTracked));
            }
        }
        assertThat(problems).as("documents named or linked that are not in the repository").isEmpty();
    }

    /**
     * The checker itself, on made-up text over a made-up file list (of real names: this file is
     * scanned too, so a name it spells out must exist; the missing one is put together at run time).
     */
    @Test
    void findsMissingDocumentsBrokenLinksAndAnchors() {
        String missing = "NO_SUCH_DOCUMENT" + ".md";
        Set<String> files = Set.of("README.md", "docs/CONTRACT.md", "jmh-bench/README.md", "jmh-bench/src/Main.java");
        Map<String, String> texts = Map.of("docs/CONTRACT.md", "# Contract\n\n## The run folder\n\n```\n# not a heading\n```\n");
        String source = "// see README.md and docs/CONTRACT.md, and " + missing + "; not https://example.org/x/" + missing + "\n";
        assertThat(problems("jmh-bench/src/Main.java", source, files, texts::get))
                .containsExactly("jmh-bench/src/Main.java:1: names " + missing + ", which is not in the repository");

        String markdown = "[ok](docs/CONTRACT.md#the-run-folder) [up](jmh-bench/README.md) [web](https://example.org/" + missing + ")\n"
                + "[bad](docs/" + missing + ") [no anchor](docs/CONTRACT.md#not-a-heading) [here](#contract-1) [self](#top)\n"
                + "# Top\n";
        assertThat(problems("README.md", markdown, files, texts::get)).containsExactlyInAnyOrder(
                "README.md:2: names docs/" + missing + ", which is not in the repository",
                "README.md:2: links to docs/" + missing + ", which is not in the repository",
                "README.md:2: links to docs/CONTRACT.md#not-a-heading: docs/CONTRACT.md has no heading 'not-a-heading'",
                "README.md:2: links to #contract-1: README.md has no heading 'contract-1'");
        assertThat(anchors("# A `b.c` d\n## Same\n## Same\n")).containsExactly("a-bc-d", "same", "same-1");
    }

    private String readTracked(String file) {
        try {
            return readText(root.resolve(file));
        } catch (IOException e) {
            return null;
        }
    }

    interface Texts {
        /** The text of a repository file, or null. */
        String text(String file);
    }

    /** What is wrong in one file's text, one line per problem: {@code file:line: what}. */
    static List<String> problems(String file, String text, Set<String> files, Texts texts) {
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        boolean markdown = file.endsWith(".md");
        for (int i = 0; i < lines.length; i++) {
            String where = file + ":" + (i + 1) + ": ";
            Matcher name = DOCUMENT_NAME.matcher(lines[i]);
            while (name.find()) {
                String base = name.group(1).substring(name.group(1).lastIndexOf('/') + 1);
                if (!RUN_FOLDER_FILES.contains(base) && resolveName(file, name.group(1), files) == null) {
                    problems.add(where + "names " + name.group(1) + ", which is not in the repository");
                }
            }
            if (!markdown) {
                continue;
            }
            Matcher link = MARKDOWN_LINK.matcher(lines[i]);
            while (link.find()) {
                String problem = checkLink(file, link.group(1), files, f -> f.equals(file) ? text : texts.text(f));
                if (problem != null) {
                    problems.add(where + "links to " + link.group(1) + problem);
                }
            }
        }
        return problems;
    }

    /** The repository file a document name means, or null. */
    private static String resolveName(String file, String name, Set<String> files) {
        String folder = parent(file);
        int slash = file.indexOf('/');
        String module = slash < 0 ? "" : file.substring(0, slash);
        for (String base : new String[] {folder, "", module}) {
            String candidate = normalize(base.isEmpty() ? name : base + "/" + name);
            if (candidate != null && files.contains(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Null when a Markdown link's target is in the repository, else why not. */
    private static String checkLink(String file, String target, Set<String> files, Texts texts) {
        if (SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null; // a URL: not this repository's business
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        String resolved;
        if (path.isEmpty()) {
            resolved = file;
        } else {
            String folder = parent(file);
            resolved = path.startsWith("/") ? null : normalize(folder.isEmpty() ? path : folder + "/" + path);
            if (resolved != null && resolved.endsWith("/")) {
                resolved = resolved.substring(0, resolved.length() - 1);
            }
            String prefix = resolved + "/";
            if (resolved == null || !(files.contains(resolved) || files.stream().anyMatch(f -> f.startsWith(prefix)))) {
                return ", which is not in the repository";
            }
        }
        if (anchor == null || anchor.isEmpty() || !resolved.endsWith(".md")) {
            return null;
        }
        String text = texts.text(resolved);
        if (text != null && !anchors(text).contains(anchor)) {
            return ": " + resolved + " has no heading '" + anchor + "'";
        }
        return null;
    }

    /** The anchors a Markdown viewer gives the headings of {@code text} (GitHub's rules). */
    static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : text.split("\n")) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (fenced || !heading.matches()) {
                continue;
            }
            String slug = heading.group(1).toLowerCase(Locale.ROOT)
                    .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    private static String parent(String file) {
        int slash = file.lastIndexOf('/');
        return slash < 0 ? "" : file.substring(0, slash);
    }

    /** {@code a/./b/../c} as {@code a/c}; null when it leaves the repository. */
    private static String normalize(String path) {
        List<String> parts = new ArrayList<>();
        for (String part : path.split("/", -1)) {
            if (part.equals("..")) {
                if (parts.isEmpty()) {
                    return null;
                }
                parts.remove(parts.size() - 1);
            } else if (!part.equals(".")) {
                parts.add(part);
            }
        }
        return String.join("/", parts);
    }

    /** The repository's files as git tracks them; without git, every file outside build output. */
    static Set<String> trackedFiles(Path root) throws IOException, InterruptedException {
        try {
            Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = git.getInputStream().readAllBytes();
            if (git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0 && out.length > 0) {
                Set<String> files = new TreeSet<>();
                for (String f : new String(out, StandardCharsets.UTF_8).split("\0")) {
                    if (!f.isEmpty() && Files.isRegularFile(root.resolve(f))) {
                        files.add(f);
                    }
                }
                return files;
            }
        } catch (IOException e) {
            // no git here: walk instead
        }
        Set<String> files = new TreeSet<>();
        Set<String> skipped = Set.of(".git", "target", "results", ".idea", ".vscode", "node_modules");
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(f -> Stream.of(f.split("/")).noneMatch(skipped::contains))
                    .forEach(files::add);
        }
        return files;
    }

    /** The file as UTF-8 text, or null for a binary file. */
    private static String readText(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (byte b : bytes) {
            if (b == 0) {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString().replace("\r\n", "\n");
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
