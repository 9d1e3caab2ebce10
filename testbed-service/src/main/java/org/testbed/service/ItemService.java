package org.testbed.service;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testbed.config.TestbedConfig;
import org.testbed.http.ETags;
import org.testbed.http.MediaTypes;
import org.testbed.http.Response;
import org.testbed.http.Routes;
import org.testbed.item.InvalidItemException;
import org.testbed.item.Item;
import org.testbed.item.ItemCodec;
import org.testbed.item.ItemId;
import org.testbed.store.ItemStore;
import org.testbed.store.StoreUnavailableException;
import org.testbed.store.Versioned;
import org.testbed.store.WriteResult;

/**
 * The CRUD half of the contract, written once: every variant calls these methods and copies the
 * {@link Response} onto its server's response, so validation, status codes, headers and bodies are
 * the same everywhere. Variants differ only in how they wait: the sync methods block the calling
 * thread on Memcached, the async methods return at once and complete on a store thread.
 *
 * <p>No method throws and no future completes exceptionally: every failure is a problem
 * {@link Response} (503 with {@code Retry-After} when Memcached is unavailable).
 *
 * <p>With {@code TESTBED_WORK_US} each CRUD method first does its {@link CpuWork} on the calling
 * thread, the async ones too, before they return: on an event loop that is the loop's own time,
 * which is the point (CPU, not I/O; the delay endpoint is the I/O). Being here, the work reaches
 * every variant with no copy of it in any adapter.
 */
public final class ItemService {
    private static final Logger log = LoggerFactory.getLogger(ItemService.class);

    private final ItemStore store;
    private final String variant;
    private final int maxBody;
    private final Metrics metrics;
    private final ETags etags;
    private final CpuWork work;

    /** A service that records no metrics. */
    public ItemService(ItemStore store, String variant, int maxBody) {
        this(store, variant, maxBody, Metrics.off());
    }

    /** {@code metrics}: where the variant's adapter records its requests, and what {@link #metrics()} scrapes. */
    public ItemService(ItemStore store, String variant, int maxBody, Metrics metrics) {
        this(store, variant, maxBody, metrics, ETags.STRONG);
    }

    /**
     * @param etags the items' entity tags: {@link ETags#WEAK} when the variant gzips its answers
     *              ({@code TESTBED_GZIP}, see {@link ETags#forGzip}), else strong
     */
    public ItemService(ItemStore store, String variant, int maxBody, Metrics metrics, ETags etags) {
        this(store, variant, maxBody, metrics, etags, CpuWork.NONE);
    }

    /**
     * @param work the CPU work every CRUD request does on the calling thread before anything else
     *             ({@code TESTBED_WORK_US}, see {@link CpuWork}); {@link CpuWork#NONE} for none
     */
    public ItemService(ItemStore store, String variant, int maxBody, Metrics metrics, ETags etags, CpuWork work) {
        this.store = store;
        this.variant = variant;
        this.maxBody = maxBody;
        this.metrics = metrics;
        this.etags = etags;
        this.work = work;
    }

    /**
     * The service as {@code config} sets it up, the one way every variant builds it: the body limit,
     * weak ETags under gzip, and the CPU work per item request (calibrated here, once, when asked for).
     */
    public static ItemService of(ItemStore store, String variant, TestbedConfig config, Metrics metrics) {
        return new ItemService(store, variant, config.maxBody(), metrics, ETags.forGzip(config.gzip()),
                CpuWork.of(config.workMicros()));
    }

    /** The variant's metrics ({@code TESTBED_METRICS}); a no-op when off. */
    public Metrics metrics() {
        return metrics;
    }

    public int maxBody() {
        return maxBody;
    }

    public String variant() {
        return variant;
    }

    /**
     * The checks of a PUT or POST that need no body: id, media type and declared length. Returns
     * the rejection, or null when the adapter should read the body (at most {@link #maxBody()}
     * bytes) and call {@link #create} or {@link #update}. {@code contentLength} is -1 when unknown.
     */
    public Response rejectBeforeBody(String rawId, String contentType, long contentLength) {
        String badId = ItemId.problemWith(rawId);
        if (badId != null) {
            return Response.problem(400, badId);
        }
        if (!MediaTypes.isJson(contentType)) {
            return Response.problem(415, "The request body must be " + MediaTypes.JSON
                    + (contentType == null ? "; no Content-Type was sent." : ", not " + contentType + "."));
        }
        if (contentLength > maxBody) {
            return tooLarge();
        }
        return null;
    }

    /** The answer to a body longer than {@code TESTBED_MAX_BODY}. */
    public Response tooLarge() {
        return Response.problem(413, "The request body is larger than " + maxBody + " bytes.");
    }

    // ---- sync: blocks the calling thread on Memcached ----

    /** PUT: creates the item with Memcached {@code add}; 409 if it exists. */
    public Response create(String rawId, String contentType, byte[] body) {
        work.run();
        try {
            Response rejected = rejectBody(rawId, contentType, body);
            if (rejected != null) {
                return rejected;
            }
            byte[] json = ItemCodec.encode(ItemCodec.decode(rawId, body));
            return created(rawId, json, store.add(rawId, json));
        } catch (RuntimeException e) {
            return failed(e);
        }
    }

    /** GET: the stored bytes as they are, with the ETag of their CAS. */
    public Response read(String rawId) {
        work.run();
        try {
            String badId = ItemId.problemWith(rawId);
            return badId != null ? Response.problem(400, badId) : found(store.get(rawId));
        } catch (RuntimeException e) {
            return failed(e);
        }
    }

    /**
     * POST: replaces the item, with Memcached {@code cas} when {@code ifMatch} names an ETag (412
     * if the item changed since), otherwise {@code replace}; 404 if absent.
     */
    public Response update(String rawId, String contentType, byte[] body, String ifMatch) {
        work.run();
        try {
            Response rejected = rejectBody(rawId, contentType, body);
            if (rejected != null) {
                return rejected;
            }
            byte[] json = ItemCodec.encode(ItemCodec.decode(rawId, body));
            if (ifMatch == null || ETags.isAny(ifMatch)) {
                return updated(json, store.replace(rawId, json));
            }
            Long cas = etags.casOf(ifMatch);
            return cas == null ? preconditionFailed() : updated(json, store.cas(rawId, cas, json));
        } catch (RuntimeException e) {
            return failed(e);
        }
    }

    /** DELETE: 204, or 404 if absent. */
    public Response delete(String rawId) {
        work.run();
        try {
            String badId = ItemId.problemWith(rawId);
            return badId != null ? Response.problem(400, badId) : deleted(store.delete(rawId));
        } catch (RuntimeException e) {
            return failed(e);
        }
    }

    /** 200 {@code {"status":"UP","variant":..}} when Memcached answers, else 503. */
    public Response health() {
        try {
            store.ping();
            return Responses.up(variant);
        } catch (RuntimeException e) {
            return failed(e);
        }
    }

    // ---- async: returns at once, completes on a store thread ----

    public CompletableFuture<Response> createAsync(String rawId, String contentType, byte[] body) {
        work.run();
        try {
            Response rejected = rejectBody(rawId, contentType, body);
            if (rejected != null) {
                return CompletableFuture.completedFuture(rejected);
            }
            byte[] json = ItemCodec.encode(ItemCodec.decode(rawId, body));
            return store.addAsync(rawId, json).handle((result, e) -> e == null ? created(rawId, json, result) : failed(e));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(e));
        }
    }

    public CompletableFuture<Response> readAsync(String rawId) {
        work.run();
        String badId = ItemId.problemWith(rawId);
        if (badId != null) {
            return CompletableFuture.completedFuture(Response.problem(400, badId));
        }
        return store.getAsync(rawId).handle((value, e) -> e == null ? found(value) : failed(e));
    }

    public CompletableFuture<Response> updateAsync(String rawId, String contentType, byte[] body, String ifMatch) {
        work.run();
        try {
            Response rejected = rejectBody(rawId, contentType, body);
            if (rejected != null) {
                return CompletableFuture.completedFuture(rejected);
            }
            byte[] json = ItemCodec.encode(ItemCodec.decode(rawId, body));
            CompletableFuture<WriteResult> write;
            if (ifMatch == null || ETags.isAny(ifMatch)) {
                write = store.replaceAsync(rawId, json);
            } else {
                Long cas = etags.casOf(ifMatch);
                if (cas == null) {
                    return CompletableFuture.completedFuture(preconditionFailed());
                }
                write = store.casAsync(rawId, cas, json);
            }
            return write.handle((result, e) -> e == null ? updated(json, result) : failed(e));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(e));
        }
    }

    public CompletableFuture<Response> deleteAsync(String rawId) {
        work.run();
        String badId = ItemId.problemWith(rawId);
        if (badId != null) {
            return CompletableFuture.completedFuture(Response.problem(400, badId));
        }
        return store.deleteAsync(rawId).handle((gone, e) -> e == null ? deleted(gone) : failed(e));
    }

    public CompletableFuture<Response> healthAsync() {
        return store.pingAsync().handle((ok, e) -> e == null ? Responses.up(variant) : failed(e));
    }

    // ---- the mapping from store outcomes to responses, shared by both paths ----

    private Response rejectBody(String rawId, String contentType, byte[] body) {
        return rejectBeforeBody(rawId, contentType, body.length);
    }

    private Response created(String id, byte[] json, WriteResult result) {
        if (!result.isStored()) {
            return Response.problem(409, "An item with this id already exists; update it with POST.");
        }
        return Response.of(201, MediaTypes.JSON, json).withEtag(etags.of(result.cas())).withLocation(Routes.location(id));
    }

    private Response found(Versioned value) {
        if (value == null) {
            return Response.problem(404, "No item with this id.");
        }
        return Response.of(200, MediaTypes.JSON, value.value()).withEtag(etags.of(value.cas()));
    }

    private Response updated(byte[] json, WriteResult result) {
        return switch (result.outcome()) {
            case STORED -> Response.of(200, MediaTypes.JSON, json).withEtag(etags.of(result.cas()));
            case NOT_FOUND -> Response.problem(404, "No item with this id; create it with PUT.");
            case CAS_MISMATCH, EXISTS -> preconditionFailed();
        };
    }

    private static Response deleted(boolean gone) {
        return gone ? Response.noContent() : Response.problem(404, "No item with this id.");
    }

    private static Response preconditionFailed() {
        return Response.problem(412, "The item has changed since the ETag in If-Match; read it again and retry.");
    }

    private static Response failed(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof StoreUnavailableException) {
            return Response.problem(503, "Memcached is unavailable: " + cause.getMessage() + ".");
        }
        if (cause instanceof InvalidItemException) {
            return Response.problem(400, cause.getMessage());
        }
        log.error("Unexpected failure handling a request", cause);
        return Response.problem(500, "Unexpected server error; see the server log.");
    }
}
