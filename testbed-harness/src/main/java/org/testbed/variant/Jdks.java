package org.testbed.variant;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a JDK able to run a variant: the running one if new enough, else {@code JAVA_HOME}, else
 * the {@code java} on the PATH, else {@code JAVA<N>_HOME} (e.g. {@code JAVA21_HOME}) for the required
 * release or any newer one, else the newest suitable JDK in the usual install directories (Debian's
 * {@code /usr/lib/jvm}, {@code /opt/java}). This is the one JDK search of the command line; the
 * {@code ./testbed} bootstrap only finds a JDK 17+ to start it.
 */
public final class Jdks {
    private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);
    private static final List<Path> INSTALL_DIRECTORIES = List.of(Path.of("/usr/lib/jvm"), Path.of("/opt/java"));
    private static final List<Integer> HOME_VARIABLES = List.of(21, 25);

    private Jdks() {
    }

    /** The {@code java} launcher of a JDK of release {@code minFeature} or newer, if there is one. */
    public static Optional<Path> javaFor(int minFeature) {
        Path current = Path.of(System.getProperty("java.home"));
        if (Runtime.version().feature() >= minFeature) {
            return Optional.of(launcher(current));
        }
        for (Path home : userChosenHomes()) {
            if (featureOf(home) >= minFeature) {
                return Optional.of(launcher(home));
            }
        }
        for (int release : HOME_VARIABLES) {
            String home = System.getenv("JAVA" + release + "_HOME");
            if (release >= minFeature && home != null && !home.isBlank() && featureOf(Path.of(home)) >= minFeature) {
                return Optional.of(launcher(Path.of(home)));
            }
        }
        return installed().filter(home -> featureOf(home) >= minFeature)
                .max(Comparator.comparingInt(Jdks::featureOf))
                .map(Jdks::launcher);
    }

    /** A JDK older than {@code release}, e.g. to prove a variant refuses to start on it. */
    public static Optional<Path> javaOlderThan(int release) {
        Path current = Path.of(System.getProperty("java.home"));
        if (Runtime.version().feature() < release) {
            return Optional.of(launcher(current));
        }
        return installed().filter(home -> {
            int feature = featureOf(home);
            return feature > 0 && feature < release;
        }).findFirst().map(Jdks::launcher);
    }

    /** Message for when {@link #javaFor} finds nothing. */
    public static String missing(int minFeature) {
        return "No JDK " + minFeature + "+ found: the running JVM is " + Runtime.version().feature()
                + ", neither JAVA_HOME, the java on the PATH nor JAVA21_HOME is one, and " + INSTALL_DIRECTORIES + " hold none. Install one"
                + " (e.g. apt-get install openjdk-21-jdk-headless) or set JAVA21_HOME.";
    }

    /** The feature release of the JDK at {@code home}, from its {@code release} file; 0 if unknown. */
    public static int featureOf(Path home) {
        try {
            Matcher matcher = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
            return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** JAVA_HOME, then the JDK of the {@code java} on the PATH: what a user chose, before any JDK merely installed. */
    private static List<Path> userChosenHomes() {
        List<Path> homes = new java.util.ArrayList<>();
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank()) {
            homes.add(Path.of(javaHome));
        }
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = directory.isEmpty() ? null : Path.of(directory, "java");
            if (candidate != null && Files.isExecutable(candidate)) {
                try {
                    // /usr/bin/java is a chain of links to <home>/bin/java; the home holds the release file.
                    homes.add(candidate.toRealPath().getParent().getParent());
                } catch (IOException | RuntimeException e) {
                    // A dangling link: not a JDK.
                }
                break;
            }
        }
        return homes;
    }

    private static Stream<Path> installed() {
        return INSTALL_DIRECTORIES.stream().filter(Files::isDirectory).flatMap(directory -> {
            try (Stream<Path> homes = Files.list(directory)) {
                return homes.filter(home -> Files.isExecutable(launcher(home)))
                        .filter(home -> !Files.isSymbolicLink(home))
                        .sorted().toList().stream();
            } catch (IOException e) {
                return Stream.empty();
            }
        });
    }

    private static Path launcher(Path home) {
        return home.resolve("bin").resolve("java");
    }
}
