package org.testbed.vertx;

import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.HttpException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testbed.config.TestbedConfig;
import org.testbed.http.HttpDate;
import org.testbed.http.MediaTypes;
import org.testbed.http.Problem;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.server.ServerTuning;
import org.testbed.service.Delay;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.service.Responses;

/**
 * One HTTP server and router on one event loop: {@link VertxServer} deploys one instance per event
 * loop, and Vert.x spreads the connections of the shared listening socket across them.
 *
 * <p>Everything a request touches runs on this verticle's event loop. Memcached answers arrive on
 * spymemcached's callback threads and hop back onto {@link #context} before the response is
 * written; the delay is a Vert.x timer. No thread is ever held while a request waits.
 *
 * <p>Routes match the raw, undecoded path ({@code useNormalizedPath(false)}) with exact regular
 * expressions, so routing is the same as {@link Routes#match}: no trailing-slash or dot-segment
 * leniency, and the item id is the raw path segment (a {@code %} in it is a 400 from the service).
 */
final class HttpVerticle extends VerticleBase {
    private static final Logger log = LoggerFactory.getLogger(HttpVerticle.class);

    private static final String ITEM = Pattern.quote(Routes.ITEMS_PREFIX) + "[^/]+";
    private static final CharSequence SERVER = HttpHeaders.createOptimized("Server");
    private static final CharSequence TESTBED = HttpHeaders.createOptimized(ServerTuning.SERVER_HEADER);
    private static final CharSequence DATE = HttpHeaders.createOptimized("Date");
    private static final CharSequence CONTENT_TYPE = HttpHeaders.CONTENT_TYPE;
    private static final CharSequence CLOSE = HttpHeaders.CLOSE;
    private static final CharSequence VARY = HttpHeaders.VARY;
    private static final CharSequence ACCEPT_ENCODING = HttpHeaders.ACCEPT_ENCODING;
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized(MediaTypes.TEXT_PLAIN);
    private static final CharSequence JSON = HttpHeaders.createOptimized(MediaTypes.JSON);
    private static final CharSequence PROBLEM_JSON = HttpHeaders.createOptimized(MediaTypes.PROBLEM_JSON);
    /** The constant plaintext body as a ready Buffer, as TechEmpower's own Vert.x test does. */
    private static final Buffer PLAINTEXT_BODY = Buffer.buffer(Responses.plaintext().body());

    private final ItemService service;
    private final HttpServerOptions options;
    private final Consumer<HttpServer> listening;

    private HttpServer server;
    private long dateTimer;
    /** The Date header of this event loop, recomputed once a second rather than per response. */
    private CharSequence date = httpDate();

    HttpVerticle(ItemService service, HttpServerOptions options, Consumer<HttpServer> listening) {
        this.service = service;
        this.options = options;
        this.listening = listening;
    }

    @Override
    public Future<?> start() {
        dateTimer = vertx.setPeriodic(1000, id -> date = httpDate());
        Router router = router();
        Metrics metrics = service.metrics();
        server = vertx.createHttpServer(options)
                .requestHandler(request -> {
                    if (metrics.enabled()) {
                        record(metrics, request);
                    }
                    if (hasOneHost(request)) {
                        router.handle(request);
                    } else {
                        refuse(request, Response.problem(400, "The request must have exactly one Host header."));
                    }
                })
                .invalidRequestHandler(this::invalidRequest)
                .exceptionHandler(e -> log.debug("Connection error: {}", e.toString()));
        return server.listen().onSuccess(listening::accept);
    }

    /** Records the request's time and status with {@code metrics} once its response has ended. */
    private static void record(Metrics metrics, HttpServerRequest request) {
        long start = metrics.start();
        HttpServerResponse response = request.response();
        response.endHandler(ended -> metrics.record(request.method().name(), request.path(), response.getStatusCode(), start));
    }

    @Override
    public Future<?> stop() {
        vertx.cancelTimer(dateTimer);
        return server == null ? Future.succeededFuture() : server.close();
    }

    private Router router() {
        Router router = Router.router(vertx);
        BodyHandler body = BodyHandler.create(false)
                .setBodyLimit(service.maxBody())
                .setMergeFormAttributes(false)
                .setPreallocateBodyBuffer(true);

        // The TechEmpower endpoints first: they are the hottest paths of a throughput run.
        exact(router, HttpMethod.GET, literal("/plaintext"), ctx -> plaintext(ctx.response()));
        exact(router, HttpMethod.GET, literal("/json"), ctx -> send(ctx, Responses.json()));
        exact(router, HttpMethod.GET, ITEM, ctx -> reply(ctx, service.readAsync(itemId(ctx))));
        // PUT and POST: two routes each, because Vert.x wants a BodyHandler first on its route. The
        // first rejects a bad id or media type before the body is read; its next() reaches the second.
        exact(router, HttpMethod.PUT, ITEM, this::checkBeforeBody);
        exact(router, HttpMethod.PUT, ITEM, body)
                .handler(ctx -> reply(ctx, service.createAsync(itemId(ctx), contentType(ctx), bodyOf(ctx))))
                .failureHandler(this::bodyCutOff);
        exact(router, HttpMethod.POST, ITEM, this::checkBeforeBody);
        exact(router, HttpMethod.POST, ITEM, body)
                .handler(ctx -> reply(ctx, service.updateAsync(itemId(ctx), contentType(ctx), bodyOf(ctx),
                        ctx.request().getHeader(HttpHeaders.IF_MATCH))))
                .failureHandler(this::bodyCutOff);
        exact(router, HttpMethod.DELETE, ITEM, ctx -> reply(ctx, service.deleteAsync(itemId(ctx))));
        exact(router, HttpMethod.GET, literal("/delay"), this::delay);
        exact(router, HttpMethod.GET, literal("/health"), ctx -> reply(ctx, service.healthAsync()));
        exact(router, HttpMethod.GET, literal("/metrics"), ctx -> send(ctx, service.metrics().scrape()));

        // Whatever the router itself answers is a problem body too: no match, wrong method, a bad
        // percent-encoding (400), the body limit (413), an unexpected Expect (417), a failure (500).
        router.errorHandler(404, ctx -> send(ctx, Routes.notFound(ctx.request().path())));
        router.errorHandler(405, this::methodNotAllowed);
        for (int status = 400; status < 600; status++) {
            if (status != 404 && status != 405) {
                router.errorHandler(status, this::failed);
            }
        }
        return router;
    }

    /** A route whose regular expression must match the whole raw path. */
    private static Route exact(Router router, HttpMethod method, String regex, Handler<RoutingContext> handler) {
        return router.routeWithRegex(method, regex).useNormalizedPath(false).handler(handler);
    }

    /** The regular expression of exactly {@code /testbed} + {@code path}. */
    private static String literal(String path) {
        return Pattern.quote(Routes.BASE + path);
    }

    // ---- handlers ----

    private void plaintext(HttpServerResponse response) {
        MultiMap headers = response.headers();
        headers.add(SERVER, TESTBED).add(DATE, date).add(CONTENT_TYPE, TEXT_PLAIN);
        response.end(PLAINTEXT_BODY);
    }

    /** Rejects a bad id, media type or declared length before a byte of the body is read. */
    private void checkBeforeBody(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        Response rejected = service.rejectBeforeBody(itemId(ctx), contentType(ctx), contentLength(request));
        if (rejected == null) {
            ctx.next();
        } else {
            send(ctx, rejected);
        }
    }

    private void delay(RoutingContext ctx) {
        String ms;
        try {
            ms = ctx.request().getParam("ms");
        } catch (IllegalArgumentException badEncoding) {
            send(ctx, Response.problem(400, "The query string is not valid percent-encoding."));
            return;
        }
        Delay delay = Delay.parse(ms);
        if (delay.rejection() != null) {
            send(ctx, delay.rejection());
        } else if (delay.millis() == 0) {
            send(ctx, Responses.delayDone());    // Vert.x timers need at least 1 ms
        } else {
            vertx.setTimer(delay.millis(), id -> send(ctx, Responses.delayDone()));
        }
    }

    private void methodNotAllowed(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        Routes.Route route = Routes.match(request.path());
        // The router only answers 405 for a path one of the routes above matches, so route is set.
        String allow = route != null ? route.endpoint().allow() : Routes.Endpoint.PLAINTEXT.allow();
        send(ctx, Response.methodNotAllowed(request.method().name(), allow));
    }

    /**
     * The connection closed while its body was arriving: the client went away, or stalled and the
     * idle timeout closed it. Nothing to answer and nothing unexpected; Vert.x's BodyHandler fails
     * such a request with status 200, which no error handler takes, so without this each slow
     * client would be logged as an "unhandled exception in router" error.
     */
    private void bodyCutOff(RoutingContext ctx) {
        if (ctx.response().closed()) {
            log.debug("Connection closed mid-body on {} {}: {}", ctx.request().method(), ctx.request().path(),
                    String.valueOf(ctx.failure()));
        } else {
            ctx.next();
        }
    }

    private void failed(RoutingContext ctx) {
        Throwable failure = ctx.failure();
        int status = ctx.statusCode() > 0 ? ctx.statusCode()
                : failure instanceof HttpException http ? http.getStatusCode() : 500;
        if (status == 413) {
            send(ctx, service.tooLarge());
        } else if (status >= 500) {
            log.error("Unexpected failure handling {} {}", ctx.request().method(), ctx.request().path(), failure);
            send(ctx, Response.problem(status, "Unexpected server error; see the server log."));
        } else {
            send(ctx, Response.problem(status, "The request was refused: " + Problem.titleOf(status) + "."));
        }
    }

    /**
     * A request Netty could not parse (bad request line, header or framing). Vert.x closes the
     * connection after the answer, since the rest of the stream cannot be trusted.
     */
    private void invalidRequest(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        Response problem;
        if (cause instanceof TooLongHttpLineException) {
            problem = Response.problem(414, "The request line is too long.");
        } else if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
            problem = Response.problem(431, "The request headers are too large.");
        } else {
            problem = Response.problem(400, "The request is not valid HTTP/1.1.");
        }
        refuse(request, problem);
    }

    /**
     * RFC 9112: an HTTP/1.1 request with no Host, or with more than one, is a 400. Netty checks
     * neither (Tomcat and Jetty do); HTTP/1.0 needs no Host.
     */
    private static boolean hasOneHost(HttpServerRequest request) {
        int hosts = request.headers().getAll(HttpHeaders.HOST).size();
        return hosts == 1 || hosts == 0 && request.version() == HttpVersion.HTTP_1_0;
    }

    /** Answers a request that cannot be trusted, and closes its connection after the answer. */
    private void refuse(HttpServerRequest request, Response problem) {
        HttpServerResponse response = request.response();
        response.headers().add(HttpHeaders.CONNECTION, CLOSE);
        write(request, response, problem);
    }

    // ---- writing a shared Response back ----

    /**
     * Sends the answer of a store operation once it is there. A future already done (a rejection
     * before Memcached) is sent at once; otherwise the answer hops from the store's callback thread
     * back onto this verticle's event loop, the only thread that may touch the response.
     */
    private void reply(RoutingContext ctx, CompletableFuture<Response> pending) {
        if (pending.isDone()) {
            send(ctx, pending.join());
        } else {
            pending.whenComplete((response, failure) -> context.runOnContext(v -> {
                if (failure == null) {
                    send(ctx, response);
                } else {    // ItemService promises this never happens; fail loudly but politely if it does
                    ctx.fail(failure);
                }
            }));
        }
    }

    private void send(RoutingContext ctx, Response answer) {
        write(ctx.request(), ctx.response(), answer);
    }

    private void write(HttpServerRequest request, HttpServerResponse response, Response answer) {
        if (response.ended() || response.closed()) {
            return;     // the client went away while Memcached or the timer was answering
        }
        MultiMap headers = response.headers();
        headers.add(SERVER, TESTBED).add(DATE, date);
        if (answer.contentType() != null) {
            headers.add(CONTENT_TYPE, mediaType(answer.contentType()));
        }
        answer.forEachHeader(headers::add);
        if (options.isCompressionSupported()) {
            if (answer.etag() != null && !answer.etag().startsWith("W/")) {
                // A strong ETag names these exact bytes: never compressed (with gzip on, ETags are weak).
                // Vert.x's compressor takes "identity" as "leave alone" and removes the header.
                headers.add(HttpHeaders.CONTENT_ENCODING, HttpHeaders.IDENTITY);
            } else if (answer.body().length >= TestbedConfig.GZIP_MIN_BYTES) {
                // Netty's compressor adds no Vary; Tomcat and Jetty do on the answers they would compress.
                headers.add(VARY, ACCEPT_ENCODING);
            }
        }
        // An answer before the body of a request that waits for "100 Continue": the client will
        // not send that body, so the connection cannot carry another request.
        boolean close = !request.isEnded() && "100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT));
        if (close) {
            headers.set(HttpHeaders.CONNECTION, CLOSE);
        }
        response.setStatusCode(answer.status());
        Future<Void> written = response.end(Buffer.buffer(answer.body()));
        if (close) {
            written.onComplete(done -> request.connection().close());
        }
    }

    private static CharSequence mediaType(String type) {
        return switch (type) {
            case MediaTypes.JSON -> JSON;
            case MediaTypes.PROBLEM_JSON -> PROBLEM_JSON;
            case MediaTypes.TEXT_PLAIN -> TEXT_PLAIN;
            default -> type;
        };
    }

    // ---- reading the request ----

    /** The raw, undecoded last path segment; the route guarantees the prefix and no further '/'. */
    private static String itemId(RoutingContext ctx) {
        return ctx.request().path().substring(Routes.ITEMS_PREFIX.length());
    }

    private static String contentType(RoutingContext ctx) {
        return ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    }

    private static long contentLength(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length == null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;    // Netty has already refused a malformed Content-Length
        }
    }

    private static byte[] bodyOf(RoutingContext ctx) {
        Buffer body = ctx.body().buffer();
        return body == null ? new byte[0] : body.getBytes();
    }

    private static CharSequence httpDate() {
        return HttpHeaders.createOptimized(HttpDate.now());
    }
}
