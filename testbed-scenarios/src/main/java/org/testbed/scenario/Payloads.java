package org.testbed.scenario;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Item bodies of an exact payload size. A payload is {@code size} ASCII letters and digits, so its
 * length in bytes equals its length in characters and it needs no JSON escaping; the body sent is
 * {@code {"name":"NAME","payload":"PAYLOAD"}}.
 *
 * <p>Payloads are cut at a random offset from one 128 KiB block generated from a fixed seed, so
 * making one costs a substring copy, not {@code size} random draws: a 10 KiB payload per write must
 * not make the load generator the bottleneck.
 */
public final class Payloads {
    /** The default payload size, and the two other sizes the studies use. */
    public static final int DEFAULT_SIZE = 100;
    public static final int ONE_KIB = 1024;
    public static final int TEN_KIB = 10 * 1024;
    /** The contract's default body limit is 64 KiB; leave room for the name and the JSON around it. */
    public static final int MAX_SIZE = 60 * 1024;
    private static final String SIZES = "a size from 0 to " + MAX_SIZE + " bytes (60KiB): 100, 1KiB, 10KiB, ...";

    private static final char[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final int BLOCK_SIZE = 128 * 1024;
    private static final String BLOCK;

    static {
        SplittableRandom random = new SplittableRandom(0x7e57bedL);
        char[] block = new char[BLOCK_SIZE];
        for (int i = 0; i < block.length; i++) {
            block[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        BLOCK = new String(block);
    }

    private Payloads() {
    }

    /** A payload of exactly {@code size} bytes, chosen by {@code random}. */
    public static String payload(int size, SplittableRandom random) {
        checkSize(size);
        int offset = random.nextInt(BLOCK_SIZE - size + 1);
        return BLOCK.substring(offset, offset + size);
    }

    /** The request body {@code {"name":..,"payload":..}}; both must be JSON-safe ASCII (as generated here). */
    public static byte[] body(String name, String payload) {
        requireSafe(name);
        requireSafe(payload);
        return ("{\"name\":\"" + name + "\",\"payload\":\"" + payload + "\"}").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Parses a size: bytes ({@code 100}), or with a unit {@code k}/{@code KiB} (x1024), e.g. {@code 1KiB},
     * {@code 10k}.
     */
    public static int parseSize(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int factor = 1;
        if (t.endsWith("kib")) {
            factor = 1024;
            t = t.substring(0, t.length() - 3);
        } else if (t.endsWith("k")) {
            factor = 1024;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        int size;
        try {
            size = Math.multiplyExact(Integer.parseInt(t.trim()), factor);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new InvalidParameterException("payloadSize", "'" + text + "'", SIZES);
        }
        if (size < 0 || size > MAX_SIZE) {
            throw new InvalidParameterException("payloadSize", "'" + text + "'", SIZES);
        }
        return size;
    }

    /** Refuses a payload size outside 0..{@link #MAX_SIZE} bytes. */
    static void checkSize(int size) {
        if (size < 0 || size > MAX_SIZE) {
            throw new InvalidParameterException("payloadSize", size, SIZES);
        }
    }

    private static void requireSafe(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                throw new IllegalArgumentException("not JSON-safe ASCII at " + i + ": " + s);
            }
        }
    }
}
