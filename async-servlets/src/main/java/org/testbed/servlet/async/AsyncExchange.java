package org.testbed.servlet.async;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.testbed.http.Response;
import org.testbed.server.ServerTuning;
import org.testbed.servlet.ServletSupport;

/**
 * One request in Servlet async mode, answered exactly once from whatever thread has the answer (a
 * Memcached callback, the delay timer, a container thread) and written with non-blocking I/O: the
 * body goes out from a {@link WriteListener}, on a container thread, so the thread that produced the
 * answer (the one shared delay timer, say) never waits on a slow client.
 *
 * <p>The async timeout is the request's own deadline (the Memcached timeout, or the delay) plus
 * {@link ServerTuning#ASYNC_TIMEOUT_MARGIN}: the store answers, a 503 included, well before it, so it
 * only fires if something is broken, and then answers 503 rather than the container's own 500.
 */
final class AsyncExchange implements AsyncListener {
    private final AsyncContext context;
    private final HttpServletResponse response;
    private final long timeoutMillis;
    private final AtomicBoolean answered = new AtomicBoolean();

    private AsyncExchange(AsyncContext context, HttpServletResponse response, long timeoutMillis) {
        this.context = context;
        this.response = response;
        this.timeoutMillis = timeoutMillis;
    }

    /** Puts the request in async mode; it must be answered within {@code waitMillis} (plus the margin). */
    static AsyncExchange start(HttpServletRequest request, HttpServletResponse response, long waitMillis) {
        AsyncContext context = request.startAsync();
        long timeout = ServerTuning.asyncTimeoutMillis(waitMillis);
        context.setTimeout(timeout);
        AsyncExchange exchange = new AsyncExchange(context, response, timeout);
        context.addListener(exchange);
        return exchange;
    }

    /** Answers with the future's response when it completes (ItemService futures never fail). */
    void answerWhenDone(CompletableFuture<Response> future) {
        future.whenComplete((answer, failure) -> answer(answer != null ? answer
                : Response.problem(500, "Unexpected server error; see the server log.")));
    }

    /** Sends {@code answer} unless the request was answered (or timed out, or failed) already. */
    void answer(Response answer) {
        if (!answered.compareAndSet(false, true)) {
            return;
        }
        try {
            ServletSupport.prepare(response, answer);
            if (answer.body().length == 0) {
                complete();
                return;
            }
            ServletOutputStream out = response.getOutputStream();
            out.setWriteListener(new BodyWriter(out, answer.body()));
        } catch (IOException | IllegalStateException e) {
            complete(); // the client is gone, or the container gave up on the request
        }
    }

    private final class BodyWriter implements WriteListener {
        private final ServletOutputStream out;
        private final byte[] body;
        private volatile boolean written;

        BodyWriter(ServletOutputStream out, byte[] body) {
            this.out = out;
            this.body = body;
        }

        /** The Servlet 3.1 pattern: isReady() before every step; called again when a write drains. */
        @Override
        public void onWritePossible() throws IOException {
            while (out.isReady()) {
                if (written) {
                    complete();
                    return;
                }
                written = true;
                out.write(body);
            }
        }

        @Override
        public void onError(Throwable failure) {
            complete();
        }
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        answerInPlaceOfTheContainer(Response.problem(503, "The request did not complete within " + timeoutMillis + " ms."));
    }

    /**
     * The container reports that the exchange failed: an exception escaped a dispatch or a
     * callback on its thread (the container logs it). Completing without an answer, as a listener
     * may, makes Jetty send its default, 200 with no body: a success for a request that did
     * nothing. So the failure is answered as one, unless an answer is already on its way.
     */
    @Override
    public void onError(AsyncEvent event) {
        answerInPlaceOfTheContainer(Response.problem(500, "Unexpected server error; see the server log."));
    }

    /** Writes {@code problem} (blocking: it is small) if nothing answered yet, then completes. */
    private void answerInPlaceOfTheContainer(Response problem) {
        if (answered.compareAndSet(false, true)) {
            try {
                ServletSupport.write(response, problem);
            } catch (IOException | IllegalStateException e) {
                // the client is gone, or the response is committed: nothing more to answer
            }
        }
        complete();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        answered.set(true);
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not re-started
    }

    private void complete() {
        try {
            context.complete();
        } catch (IllegalStateException alreadyCompleted) {
            // completed by the container (timeout, error) or by a racing path
        }
    }
}
