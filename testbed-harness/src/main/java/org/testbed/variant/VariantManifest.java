package org.testbed.variant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Reads {@code variants.conf}: one variant per line, whitespace-separated
 * {@code name module jar mode min_jdk description...}; {@code #} starts a comment. A plain format
 * on purpose, so that people and the deployment scripts read the same file without a JSON tool.
 */
public final class VariantManifest {
    public static final String FILE_NAME = "variants.conf";
    private static final String RESOURCE = "/org/testbed/variant/" + FILE_NAME;

    private final List<Variant> variants;

    private VariantManifest(List<Variant> variants) {
        this.variants = List.copyOf(variants);
    }

    public static VariantManifest load(Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(reader, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the variant manifest " + file, e);
        }
    }

    /** The copy packaged in this library's jar. */
    public static VariantManifest bundled() {
        InputStream in = VariantManifest.class.getResourceAsStream(RESOURCE);
        if (in == null) {
            throw new IllegalStateException(RESOURCE + " is missing from the classpath");
        }
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return parse(reader, RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static VariantManifest parse(Reader source, String origin) throws IOException {
        List<Variant> variants = new ArrayList<>();
        BufferedReader reader = new BufferedReader(source);
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
            number++;
            String content = line.strip();
            if (content.isEmpty() || content.startsWith("#")) {
                continue;
            }
            String[] fields = content.split("\\s+", 6);
            if (fields.length < 6) {
                throw new IllegalArgumentException(origin + ":" + number
                        + ": expected 'name module jar mode min_jdk description', got: " + content);
            }
            int minJdk;
            try {
                minJdk = Integer.parseInt(fields[4]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(origin + ":" + number + ": min_jdk must be a number, got " + fields[4]);
            }
            variants.add(new Variant(fields[0], fields[1], fields[2], fields[3], minJdk, fields[5]));
        }
        return new VariantManifest(variants);
    }

    public List<Variant> variants() {
        return variants;
    }

    public Variant find(String name) {
        return variants.stream().filter(v -> v.name().equals(name)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("No variant '" + name + "'; known: "
                        + variants.stream().map(Variant::name).toList()));
    }
}
