package org.testbed.containers.tomcat;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.catalina.Context;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.testbed.service.Metrics;

/**
 * {@code TESTBED_METRICS} on a servlet container: times each request from its arrival at the
 * application to its completion, the end of the async context for a request that went async, and
 * records it with {@link Metrics#record}. Used by the Tomcat variants, Spring's included (Jetty's
 * record through {@code org.testbed.containers.jetty.MetricsHandler}, which also covers jetty-handler).
 * Installed only when metrics are on.
 */
public final class RequestMetricsFilter extends HttpFilter {
    private static final String NAME = "testbed-metrics";

    private final transient Metrics metrics;

    public RequestMetricsFilter(Metrics metrics) {
        this.metrics = metrics;
    }

    /** Maps a filter recording into {@code metrics} to every request of {@code context}. */
    public static void addTo(Context context, Metrics metrics) {
        FilterDef filter = new FilterDef();
        filter.setFilterName(NAME);
        filter.setFilter(new RequestMetricsFilter(metrics));
        filter.setAsyncSupported("true");
        context.addFilterDef(filter);
        FilterMap mapping = new FilterMap();
        mapping.setFilterName(NAME);
        mapping.addURLPatternDecoded("/*");
        context.addFilterMap(mapping);
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long start = metrics.start();
        try {
            chain.doFilter(request, response);
        } finally {
            if (!request.isAsyncStarted() || !listen(request, response, start)) {
                metrics.record(request.getMethod(), request.getRequestURI(), response.getStatus(), start);
            }
        }
    }

    /**
     * Records the request when its async context completes. Even when another thread has completed
     * it already, the completion only takes effect once this dispatch returns, so the listener
     * added here hears it; false if the container refuses the listener all the same.
     */
    private boolean listen(HttpServletRequest request, HttpServletResponse response, long start) {
        try {
            request.getAsyncContext().addListener(new Completion(request, response, start));
            return true;
        } catch (IllegalStateException completed) {
            return false;
        }
    }

    private final class Completion implements AsyncListener {
        private final String method;
        private final String path;
        private final HttpServletResponse response;
        private final long start;

        Completion(HttpServletRequest request, HttpServletResponse response, long start) {
            this.method = request.getMethod();
            this.path = request.getRequestURI();
            this.response = response;
            this.start = start;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            metrics.record(method, path, response.getStatus(), start);
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            // onComplete follows, with the status the timeout answered
        }

        @Override
        public void onError(AsyncEvent event) {
            // onComplete follows
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // not re-started
        }
    }
}
