package org.testbed.runner.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.testbed.runner.suite.PomFile;

/**
 * The fuzz targets of the repository: every method annotated {@code @FuzzTest} (Jazzer's JUnit
 * integration) in the test sources of a module of the root pom, found by reading the sources, so that a
 * fuzz test added anywhere is fuzzed by {@code ./testbed fuzz} without being listed anywhere. A source
 * that imports Jazzer's {@code FuzzTest} and whose {@code @FuzzTest} annotations cannot all be read as
 * methods is an error, never a target left out.
 */
public final class FuzzTargets {
    /** One {@code @FuzzTest} method: where it is and how Surefire names it. */
    public record Target(String module, String className, String method, Path source) {
        /** {@code testbed-item:ItemCodecFuzzTest#decodeRequestBody}: what {@code --target} matches. */
        public String name() {
            return module + ":" + simpleName() + "#" + method;
        }

        public String simpleName() {
            return className.substring(className.lastIndexOf('.') + 1);
        }

        /** Surefire's {@code -Dtest} selection of this one method. */
        public String surefireTest() {
            return className + "#" + method;
        }

        /**
         * Where Jazzer replays this target's inputs from and writes the crashes it finds:
         * {@code src/test/resources/<package>/<Class>Inputs/<method>/} of its module.
         */
        public Path inputsDirectory(Path root) {
            Path dir = root.resolve(module).resolve("src/test/resources");
            for (String part : className.split("\\.")) {
                dir = dir.resolve(part);
            }
            return dir.resolveSibling(simpleName() + "Inputs").resolve(method);
        }
    }

    /** An annotation as written in code: {@code @FuzzTest}, never {@code {@link FuzzTest}} or an import. */
    private static final Pattern ANNOTATION = Pattern.compile("(?<![\\w.{])@FuzzTest\\b");
    /** {@code @FuzzTest}, its arguments, any other annotations and the modifiers, then the method's name. */
    private static final Pattern METHOD = Pattern.compile("(?<![\\w.{])@FuzzTest\\b(?:\\s*\\([^)]*\\))?"
            + "(?:\\s*@[\\w.]+(?:\\s*\\([^)]*\\))?)*"
            + "\\s*(?:(?:public|protected|private|static|final|synchronized)\\s+)*void\\s+(\\w+)\\s*\\(");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    /** Jazzer's annotation imported, at the start of a line (not in a text block a test writes). */
    private static final Pattern IMPORT = Pattern.compile("(?m)^import com\\.code_intelligence\\.jazzer\\.junit\\.(?:FuzzTest|\\*);");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    private FuzzTargets() {
    }

    /** Every target of the modules of {@code root}'s pom, by module, then class, then method as written. */
    public static List<Target> scan(Path root) throws IOException {
        List<Target> targets = new ArrayList<>();
        for (String module : PomFile.modules(root.resolve("pom.xml"))) {
            Path tests = root.resolve(module).resolve("src/test/java");
            if (!Files.isDirectory(tests)) {
                continue;
            }
            List<Path> sources;
            try (Stream<Path> files = Files.walk(tests)) {
                sources = files.filter(f -> f.toString().endsWith(".java")).sorted(Comparator.comparing(Path::toString)).toList();
            }
            for (Path source : sources) {
                targets.addAll(inSource(module, source, Files.readString(source, StandardCharsets.UTF_8)));
            }
        }
        return targets;
    }

    /** The targets of one source file; an {@link IllegalStateException} when an annotation is not read as a method. */
    static List<Target> inSource(String module, Path source, String text) {
        if (!IMPORT.matcher(text).find()) {
            return List.of();
        }
        String code = COMMENT.matcher(text).replaceAll(" ");
        long annotations = ANNOTATION.matcher(code).results().count();
        if (annotations == 0) {
            return List.of();
        }
        Matcher pkg = PACKAGE.matcher(code);
        String fileName = source.getFileName().toString();
        String className = (pkg.find() ? pkg.group(1) + "." : "") + fileName.substring(0, fileName.length() - ".java".length());
        List<Target> targets = new ArrayList<>();
        Matcher m = METHOD.matcher(code);
        while (m.find()) {
            targets.add(new Target(module, className, m.group(1), source));
        }
        if (targets.size() != annotations) {
            throw new IllegalStateException(source + " has " + annotations + " @FuzzTest annotations, but only " + targets.size()
                    + " read as void methods (" + targets.stream().map(Target::method).toList() + "): write each as"
                    + " '@FuzzTest [@Other...] void name(...)' so that ./testbed fuzz finds it");
        }
        return targets;
    }

    /** The targets whose name contains one of {@code wanted} (all of them when it is empty); each must match one. */
    public static List<Target> select(List<Target> all, List<String> wanted) {
        if (wanted == null || wanted.isEmpty()) {
            return all;
        }
        for (String w : wanted) {
            if (all.stream().noneMatch(t -> t.name().contains(w))) {
                throw new IllegalArgumentException("--target " + w + " names no fuzz target; they are "
                        + all.stream().map(Target::name).toList());
            }
        }
        return all.stream().filter(t -> wanted.stream().anyMatch(w -> t.name().contains(w))).toList();
    }
}
