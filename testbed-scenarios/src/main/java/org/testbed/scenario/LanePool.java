package org.testbed.scenario;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lends lanes (request streams) to short-lived users. In an open model each arriving user sends one
 * request and leaves; borrowing a lane and giving it back keeps the lanes' state (churn keys,
 * journey progress) and determinism across users, with as many lanes as were ever busy at once.
 * Thread-safe.
 */
public final class LanePool {
    private final Workload workload;
    private final ConcurrentLinkedDeque<RequestStream> idle = new ConcurrentLinkedDeque<>();
    private final AtomicLong created = new AtomicLong();

    public LanePool(Workload workload) {
        this.workload = workload;
    }

    /** An idle lane, or a new one (lanes are numbered 0, 1, 2, ... in creation order). */
    public RequestStream borrow() {
        RequestStream lane = idle.pollFirst();
        return lane != null ? lane : workload.stream(created.getAndIncrement());
    }

    public void release(RequestStream lane) {
        idle.addFirst(lane);
    }

    /** How many lanes exist: the highest number of users that held one at the same time. */
    public long lanes() {
        return created.get();
    }
}
