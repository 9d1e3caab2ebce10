package org.testbed.http;

/**
 * Strong entity tags derived from Memcached's CAS value, so {@code If-Match} maps directly onto a
 * Memcached {@code cas} (compare-and-swap) and needs no extra read.
 */
public final class ETags {
    private ETags() {
    }

    public static String of(long cas) {
        return "\"" + Long.toHexString(cas) + "\"";
    }

    /**
     * Parses an {@code If-Match} value holding one strong entity tag. Returns null when the value
     * names no CAS this service could have issued (weak, list, or malformed): such a precondition
     * can never hold, which RFC 9110 answers with 412.
     */
    public static Long casOf(String ifMatch) {
        String value = ifMatch.trim();
        if (value.length() < 3 || value.charAt(0) != '"' || value.charAt(value.length() - 1) != '"') {
            return null;
        }
        String hex = value.substring(1, value.length() - 1);
        if (hex.length() > 16) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(hex, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public static boolean isAny(String ifMatch) {
        return ifMatch.trim().equals("*");
    }
}
