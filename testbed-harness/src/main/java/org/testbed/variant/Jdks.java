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
 * Finds a JDK able to run a variant: the running one if new enough, else {@code JAVA<N>_HOME}
 * (e.g. {@code JAVA21_HOME}) for the required release or any newer one, else the newest suitable
 * JDK in the usual install directories (Debian's {@code /usr/lib/jvm}, {@code /opt/java}).
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
                + ", JAVA21_HOME is unset, and " + INSTALL_DIRECTORIES + " hold none. Install one"
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
