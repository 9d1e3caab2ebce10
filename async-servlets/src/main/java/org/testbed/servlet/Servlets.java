package org.testbed.servlet;

import jakarta.servlet.http.HttpServlet;
import java.util.EnumSet;
import java.util.Set;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.servlet.async.AsyncServlet;
import org.testbed.servlet.sync.SyncServlet;
import org.testbed.store.ItemStore;

/** The servlet each mode runs, the same on both containers: sync and virtual block, async does not. */
public final class Servlets {
    /** Every mode, on both containers. */
    public static final Set<Mode> MODES = EnumSet.allOf(Mode.class);

    private Servlets() {
    }

    /** e.g. {@code servlet-tomcat-async}: the family always carries the mode. */
    public static String variant(String family, TestbedConfig config) {
        return ServerStartup.variantName(family, config.mode(), null);
    }

    /** {@code metrics}: what {@code /testbed/metrics} scrapes; the container records into it. */
    public static HttpServlet forMode(String variant, TestbedConfig config, ItemStore store, Metrics metrics) {
        ItemService items = ItemService.of(store, variant, config, metrics);
        return config.mode() == Mode.ASYNC
                ? new AsyncServlet(items, config.memcachedTimeoutMs())
                : new SyncServlet(items);
    }
}
