package org.testbed.http;

/**
 * Entity tags derived from Memcached's CAS value, so {@code If-Match} maps directly onto a
 * Memcached {@code cas} (compare-and-swap) and needs no extra read.
 *
 * <ul>
 *   <li>{@link #STRONG} ({@code "1a2b"}), the default: the tag names the exact bytes of the answer
 *       (RFC 9110, 8.8.1), and {@code If-Match} compares it strongly: a weak tag never matches.</li>
 *   <li>{@link #WEAK} ({@code W/"1a2b"}), with {@code TESTBED_GZIP} on: a compressed answer is
 *       other bytes than the identity one, which a strong tag would have to tell apart, and
 *       Tomcat's compression refuses any answer with a strong tag. A weak tag names the item's
 *       version whatever its content-coding, so every server compresses item answers with its own
 *       mechanism. {@code If-Match} then takes the tag as the service sent it (the weak form, or
 *       the same value strong): it still names one CAS, and compare-and-swap still holds.</li>
 * </ul>
 */
public enum ETags {
    STRONG,
    WEAK;

    private static final String WEAK_PREFIX = "W/";

    /** The tags of a service with {@code TESTBED_GZIP} on ({@link #WEAK}) or off ({@link #STRONG}). */
    public static ETags forGzip(boolean gzip) {
        return gzip ? WEAK : STRONG;
    }

    public String of(long cas) {
        String tag = "\"" + Long.toHexString(cas) + "\"";
        return this == WEAK ? WEAK_PREFIX + tag : tag;
    }

    /**
     * Parses an {@code If-Match} value holding one entity tag this service could have issued.
     * Returns null when it names none (a weak tag to a {@link #STRONG} service, a list, another
     * spelling of the number such as {@code "1F"} or {@code "01"}, or malformed): such a precondition can never hold, which RFC 9110 answers with 412. {@code "0"} is
     * one of those: Memcached gives no stored item CAS 0, and its binary protocol reads a CAS of 0 as
     * "no CAS at all", so taken at its word it would turn a conditional update into an unconditional one.
     */
    public Long casOf(String ifMatch) {
        String value = ifMatch.trim();
        if (this == WEAK && value.startsWith(WEAK_PREFIX)) {
            value = value.substring(WEAK_PREFIX.length());
        }
        if (value.length() < 3 || value.charAt(0) != '"' || value.charAt(value.length() - 1) != '"') {
            return null;
        }
        String hex = value.substring(1, value.length() - 1);
        if (!isIssuedHex(hex)) {
            return null;
        }
        long cas = Long.parseUnsignedLong(hex, 16);
        return cas == 0 ? null : cas;
    }

    /**
     * Whether {@code hex} is written as {@link #of} writes a CAS ({@link Long#toHexString}): 1 to 16
     * lower-case hex digits without a leading zero. {@code If-Match} compares tags strongly, character by
     * character (RFC 9110, 13.1.1), so {@code "1F"}, {@code "01"} or {@code "+1f"} is another tag than
     * {@code "1f"} and names no version of the item, though {@link Long#parseUnsignedLong} reads them all as 31.
     */
    private static boolean isIssuedHex(String hex) {
        if (hex.isEmpty() || hex.length() > 16 || (hex.length() > 1 && hex.charAt(0) == '0')) {
            return false;
        }
        for (int i = 0; i < hex.length(); i++) {
            char c = hex.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    public static boolean isAny(String ifMatch) {
        return ifMatch.trim().equals("*");
    }
}
