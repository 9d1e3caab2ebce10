package org.testbed.item;

/**
 * Validates item ids: 1..200 characters of {@code [A-Za-z0-9._~-]}, the RFC 3986 unreserved set.
 *
 * <p>Unreserved characters need no percent-decoding, so every server sees the same id in the raw
 * request path, and {@code "item:" + id} is always a legal Memcached key (at most 250 bytes, no
 * spaces or control characters).
 */
public final class ItemId {
    public static final int MAX_LENGTH = 200;

    private ItemId() {
    }

    /** Returns null when the id is valid, otherwise a sentence saying why not. */
    public static String problemWith(String id) {
        if (id == null || id.isEmpty()) {
            return "The item id is empty.";
        }
        if (id.length() > MAX_LENGTH) {
            return "The item id is " + id.length() + " characters long; at most " + MAX_LENGTH + " are allowed.";
        }
        for (int i = 0; i < id.length(); i++) {
            if (!isUnreserved(id.charAt(i))) {
                return "The item id may contain only letters, digits and . _ ~ - (found '"
                        + printable(id.charAt(i)) + "' at position " + i + ").";
            }
        }
        return null;
    }

    public static boolean isValid(String id) {
        return problemWith(id) == null;
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '.' || c == '_' || c == '~' || c == '-';
    }

    private static String printable(char c) {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
    }
}
