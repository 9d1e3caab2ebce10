package org.testbed.runfolder.report;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * Debian's headless Chromium, to open a report as a person would and read back the DOM after its
 * scripts ran. Missing Chromium fails the test with what to install: a render test that skips is
 * not a render test.
 */
public final class Chromium {
    private Chromium() {
    }

    public static Path binary() {
        String configured = System.getenv("CHROMIUM_BIN");
        List<String> candidates = new ArrayList<>();
        if (configured != null && !configured.isBlank()) {
            candidates.add(configured);
        }
        candidates.addAll(List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"));
        for (String c : candidates) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        throw new IllegalStateException("headless Chromium is needed to check that report.html renders:"
                + " apt-get install -y chromium (or set CHROMIUM_BIN)");
    }

    /** The DOM after the page's scripts ran ({@code --dump-dom}). */
    public static String dumpDom(Path page) throws IOException, InterruptedException {
        return dumpDom(page, "");
    }

    /** The DOM of the page opened at {@code fragment} ({@code #timeline=3}: a view the page opens from its address). */
    public static String dumpDom(Path page, String fragment) throws IOException, InterruptedException {
        return run(page, fragment, "--dump-dom");
    }

    /** A PNG screenshot of the page. */
    public static void screenshot(Path page, Path png) throws IOException, InterruptedException {
        screenshot(page, "", png);
    }

    /** A screenshot of what a reader sees first: the top of the page in a window of 1400 × 1000. */
    public static void aboveTheFold(Path page, Path png) throws IOException, InterruptedException {
        run(page, "", "--screenshot=" + png.toAbsolutePath(), "--window-size=1400,1000");
    }

    /** A PNG screenshot of the page opened at {@code fragment}. */
    public static void screenshot(Path page, String fragment, Path png) throws IOException, InterruptedException {
        run(page, fragment, "--screenshot=" + png.toAbsolutePath(), "--window-size=1300,2400");
    }

    /**
     * How many pixels of a screenshot of the page are strongly coloured: what a page that draws on a
     * canvas (async-profiler's flame graphs and heat maps) shows once its script has drawn, and a
     * blank or broken one does not.
     */
    public static long colouredPixels(Path page, Path png) throws IOException, InterruptedException {
        screenshot(page, png);
        BufferedImage image = ImageIO.read(png.toFile());
        long coloured = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                int r = rgb >> 16 & 0xff;
                int g = rgb >> 8 & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                    coloured++;
                }
            }
        }
        return coloured;
    }

    private static String run(Path page, String fragment, String... what) throws IOException, InterruptedException {
        // Chromium fills its profile with hundreds of files; a test that left one per page behind
        // filled the temporary folder by the hundred.
        Path profile = Files.createTempDirectory("chromium-profile");
        Path err = Files.createTempFile("chromium", ".log");
        try {
            List<String> command = new ArrayList<>(List.of(binary().toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--disable-dev-shm-usage", "--user-data-dir=" + profile));
            command.addAll(List.of(what));
            command.add(page.toAbsolutePath().toUri() + fragment);
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("chromium did not finish within 60 s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("chromium exited " + p.exitValue() + ": " + Files.readString(err));
            }
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            deleteTree(profile);
            Files.deleteIfExists(err);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
