package org.testbed.runfolder.price;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The prices a run may be charged at: one price for whatever machine the server runs on
 * ({@code --price-per-hour 0.0416}), or a prices file naming a price per machine ({@code --prices FILE}),
 * so that one file serves runs on different machines and {@code compare} can say which is cheaper
 * per request.
 *
 * <p>The file, UTF-8, one entry a line:
 * <pre>
 * # price per hour of each machine (any currency, the same in the whole file)
 * vm-x86.example.org = 0.0416     # a host name, as results.csv's host column writes it
 * AMD EPYC 7B13      = 0.0400     # a CPU model, as results.csv's cpu_model writes it
 * aarch64            = 0.0336     # an arch: x86_64 or aarch64
 * *                  = 0.05       # any other machine
 * </pre>
 * {@code KEY = PRICE}: the key is a host name (the server machine's, or with {@code --server-host}
 * the host ssh reached), a CPU model, an arch, or {@code *}; matched whole and ignoring case. The
 * price is a number &gt; 0 with a dot for decimals and no currency sign. {@code #} starts a comment;
 * blank lines are ignored. A key may appear once. The most specific key wins, whatever the order
 * of the lines: the host name, then the ssh host, then the CPU model, then the arch, then {@code *}.
 */
public record PriceList(String origin, List<Entry> entries) {
    /** The key of any machine no other key names. */
    public static final String ANY = "*";
    /** What a line may be, for the error messages. */
    static final String GRAMMAR = "each line is KEY = PRICE, KEY a host name, a CPU model, an arch (x86_64, aarch64)"
            + " or * for any other machine, PRICE a number > 0 per hour with a dot and no currency sign, e.g. 'vm-arm = 0.0336'";

    /**
     * One line of the file.
     *
     * @param key the host name or label, as written
     * @param pricePerHour its price
     * @param line where it is (0 for {@code --price-per-hour})
     */
    public record Entry(String key, double pricePerHour, int line) {
    }

    /**
     * The names a machine may be priced under, most specific first.
     *
     * @param host its host name (results.csv's {@code host})
     * @param sshHost with {@code --server-host}: the host part of the ssh destination (an alias, an address)
     * @param cpuModel its CPU model (results.csv's {@code cpu_model})
     * @param arch {@code x86_64}, {@code aarch64}
     */
    public record Machine(String host, Optional<String> sshHost, String cpuModel, String arch) {
        /** For the messages: {@code host vm1, CPU model X, arch x86_64}. */
        String describe() {
            return "host " + host + sshHost.map(h -> ", ssh host " + h).orElse("") + ", CPU model " + cpuModel + ", arch " + arch;
        }
    }

    public PriceList {
        entries = List.copyOf(entries);
    }

    /** {@code --price-per-hour}: one price, whatever the machine. */
    public static PriceList single(double pricePerHour) {
        return new PriceList("--price-per-hour", List.of(new Entry(ANY, pricePerHour, 0)));
    }

    /** {@code --price-per-hour TEXT}, checked: one line naming what is allowed when it is not a price. */
    public static PriceList single(String text) {
        return single(price(text, "--price-per-hour takes"));
    }

    /** A prices file; one line naming the file, the line and what is allowed when it cannot be used. */
    public static PriceList read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("--prices " + file + ": cannot read it (" + e.getMessage() + "); " + GRAMMAR);
        }
        return parse(text, file.toString());
    }

    /** A prices file's text; {@code origin} names it in the messages. */
    public static PriceList parse(String text, String origin) {
        Map<String, Entry> byKey = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (content.isEmpty()) {
                continue;
            }
            String where = origin + " line " + (i + 1);
            int eq = content.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(where + ": '" + content + "' has no '='; " + GRAMMAR);
            }
            String key = content.substring(0, eq).strip().replaceAll("\\s+", " ");
            if (key.isEmpty()) {
                throw new IllegalArgumentException(where + ": '" + content + "' names no host or label before '='; " + GRAMMAR);
            }
            double price = price(content.substring(eq + 1).strip(), where + ": the price of '" + key + "' must be");
            Entry previous = byKey.get(key.toLowerCase(Locale.ROOT));
            if (previous != null) {
                throw new IllegalArgumentException(where + ": '" + key + "' is priced twice (also line " + previous.line()
                        + "); each host or label once");
            }
            byKey.put(key.toLowerCase(Locale.ROOT), new Entry(key, price, i + 1));
        }
        if (byKey.isEmpty()) {
            throw new IllegalArgumentException(origin + ": no prices in it; " + GRAMMAR);
        }
        return new PriceList(origin, new ArrayList<>(byKey.values()));
    }

    /** A price as given on the command line or in the file: a number > 0, a dot for decimals, no currency sign. */
    static double price(String text, String what) {
        String t = text == null ? "" : text.strip();
        double price;
        try {
            if (!t.matches("[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?")) {
                throw new NumberFormatException();
            }
            price = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            price = Double.NaN;
        }
        if (!(price > 0) || Double.isInfinite(price)) {
            throw new IllegalArgumentException(what + " a price per hour, a number > 0 with a dot for decimals and no"
                    + " currency sign (e.g. 0.0416), not '" + t + "'");
        }
        return price;
    }

    /**
     * The price of {@code machine}, charged at {@code share}: the most specific entry that names it
     * (host, ssh host, CPU model, arch, then {@code *}). One line naming the machine and the file
     * when none does.
     */
    public Pricing priceFor(Machine machine, ServerShare share) {
        List<String[]> names = new ArrayList<>();
        names.add(new String[] {machine.host(), "the host name"});
        machine.sshHost().ifPresent(h -> names.add(new String[] {h, "the ssh host"}));
        names.add(new String[] {machine.cpuModel(), "the CPU model"});
        names.add(new String[] {machine.arch(), "the arch"});
        names.add(new String[] {ANY, "any machine"});
        for (String[] name : names) {
            if (name[0] == null || name[0].isBlank()) {
                continue;
            }
            String wanted = name[0].strip().replaceAll("\\s+", " ");
            for (Entry e : entries) {
                if (e.key().equalsIgnoreCase(wanted)) {
                    String source = e.line() == 0 ? origin
                            : "--prices " + origin + " line " + e.line() + ": '" + e.key() + "' (" + name[1] + ")";
                    return new Pricing(e.pricePerHour(), share, source, Optional.empty());
                }
            }
        }
        throw new IllegalArgumentException(origin + " has no price for the server's machine (" + machine.describe()
                + "): add a line '" + machine.host() + " = PRICE' or '" + ANY + " = PRICE'");
    }
}
