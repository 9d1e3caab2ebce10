package org.testbed.scenario;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The ratios of a request mix over the item endpoints: GET (read), POST (update), PUT (create) and
 * DELETE, as weights that need not add up to 100. {@code 80:10:5:5} is the default read-heavy mix.
 */
public record Mix(double get, double post, double put, double delete) {
    public static final Mix READ_HEAVY = new Mix(80, 10, 5, 5);
    private static final String ALLOWED = "GET:POST:PUT:DELETE weights, numbers >= 0 and not all 0, e.g. 80:10:5:5";

    public Mix {
        if (!(get >= 0 && post >= 0 && put >= 0 && delete >= 0) || !Double.isFinite(get + post + put + delete)
                || get + post + put + delete <= 0) {
            throw new InvalidParameterException("mix", get + ":" + post + ":" + put + ":" + delete, ALLOWED);
        }
    }

    /** Parses {@code GET:POST:PUT:DELETE}, e.g. {@code 80:10:5:5} or {@code 100:0:0:0} (reads only). */
    public static Mix parse(String text) {
        String[] parts = text.trim().split(":");
        try {
            if (parts.length == 4) {
                return new Mix(Double.parseDouble(parts[0]), Double.parseDouble(parts[1]),
                        Double.parseDouble(parts[2]), Double.parseDouble(parts[3]));
            }
        } catch (NumberFormatException | InvalidParameterException e) {
            // said below, with the text as given
        }
        throw new InvalidParameterException("mix", "'" + text + "'", ALLOWED);
    }

    public double total() {
        return get + post + put + delete;
    }

    /** Draws one method with these weights. */
    public HttpMethod draw(SplittableRandom random) {
        double x = random.nextDouble() * total();
        if ((x -= get) < 0) {
            return HttpMethod.GET;
        }
        if ((x -= post) < 0) {
            return HttpMethod.POST;
        }
        if ((x -= put) < 0 || delete == 0) {
            return HttpMethod.PUT;
        }
        return HttpMethod.DELETE;
    }

    /** The fraction of {@code method} in the mix. */
    public double share(HttpMethod method) {
        return switch (method) {
            case GET -> get;
            case POST -> post;
            case PUT -> put;
            case DELETE -> delete;
        } / total();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s:%s:%s:%s", fmt(get), fmt(post), fmt(put), fmt(delete));
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
