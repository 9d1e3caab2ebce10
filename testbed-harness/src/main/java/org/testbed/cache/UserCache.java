package org.testbed.cache;

import java.nio.file.Path;

/**
 * The folder where the tools built or fetched once per machine are kept between runs (the arm64
 * runtime, the Toxiproxy binary): {@code $TESTBED_CACHE_DIR}, else {@code $XDG_CACHE_HOME/testbed},
 * else {@code ~/.cache/testbed}.
 */
public final class UserCache {
    private UserCache() {
    }

    public static Path base() {
        String own = System.getenv("TESTBED_CACHE_DIR");
        String xdg = System.getenv("XDG_CACHE_HOME");
        return own != null && !own.isBlank() ? Path.of(own)
                : xdg != null && !xdg.isBlank() ? Path.of(xdg, "testbed")
                : Path.of(System.getProperty("user.home"), ".cache", "testbed");
    }
}
