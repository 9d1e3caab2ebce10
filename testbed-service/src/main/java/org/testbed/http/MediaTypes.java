package org.testbed.http;

/** The media types of the contract, and the check that a request body is JSON in UTF-8. */
public final class MediaTypes {
    public static final String JSON = "application/json";
    public static final String PROBLEM_JSON = "application/problem+json";
    public static final String TEXT_PLAIN = "text/plain";

    private MediaTypes() {
    }

    /**
     * True for {@code application/json}, in any letter case, with no parameters or with a
     * {@code charset} of UTF-8 (JSON has no other encoding, RFC 8259).
     */
    public static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        if (!type.equalsIgnoreCase(JSON)) {
            return false;
        }
        if (semicolon < 0) {
            return true;
        }
        for (String parameter : contentType.substring(semicolon + 1).split(";")) {
            String p = parameter.trim();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            if (eq < 0) {
                return false;
            }
            String name = p.substring(0, eq).trim();
            String value = p.substring(eq + 1).trim().replace("\"", "");
            if (name.equalsIgnoreCase("charset") && !value.equalsIgnoreCase("utf-8")) {
                return false;
            }
        }
        return true;
    }
}
