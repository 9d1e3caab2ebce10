package org.testbed.containers.jetty;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.testbed.service.Metrics;

/**
 * {@code TESTBED_METRICS} on Jetty's core API, so for the servlet and the handler variants alike:
 * times each request from its arrival to the completion of its callback (the last byte written, or
 * the failure) and records it with {@link Metrics#record}. Installed only when metrics are on.
 */
final class MetricsHandler extends Handler.Wrapper {
    private final Metrics metrics;

    MetricsHandler(Metrics metrics, Handler handler) {
        super(handler);
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long start = metrics.start();
        String method = request.getMethod();
        String path = request.getHttpURI().getPath();
        return super.handle(request, response,
                Callback.from(callback, () -> metrics.record(method, path, response.getStatus(), start)));
    }
}
