package org.testbed.helidon;

import io.helidon.common.buffers.DataReader;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A connection's bytes as Helidon's readers take them ({@link DataReader}'s source), noting when
 * the connection's thread waits for more, so that {@link IdleCutter} can end a wait that lasts
 * longer than the idle timeout: it interrupts the waiting virtual thread, which closes the socket,
 * and from then on this source is at its end. Bytes already read can be handed back
 * ({@link #pushBack}) to be read again, by the reader the connection is handed on to.
 */
final class WatchedInput implements Supplier<byte[]> {
    /** Not waiting; any other positive value is when the wait began, as {@link #clock()}. */
    private static final long RUNNING = 0;
    private static final long CUT = -1;
    private static final long ORIGIN = System.nanoTime();

    private final DataReader socket;
    private final Thread thread;
    private final AtomicLong state = new AtomicLong(RUNNING);
    private byte[] pushedBack;
    private volatile boolean ended;

    WatchedInput(DataReader socket, Thread thread) {
        this.socket = socket;
        this.thread = thread;
    }

    @Override
    public byte[] get() {
        if (pushedBack != null) {
            byte[] bytes = pushedBack;
            pushedBack = null;
            return bytes;
        }
        if (ended || state.get() == CUT) {
            return null;
        }
        if (socket.available() == 0) {
            long since = clock();
            if (!state.compareAndSet(RUNNING, since)) {
                return null;
            }
            try {
                socket.ensureAvailable();
            } catch (RuntimeException closedOrInterrupted) {
                state.set(CUT);
                return null;
            }
            if (!state.compareAndSet(since, RUNNING)) {
                return null; // cut just as the bytes came: the interrupt is on its way
            }
        }
        return socket.readBytes(socket.available());
    }

    /** Bytes to be read again before any new ones. */
    void pushBack(byte[] bytes) {
        if (bytes.length == 0) {
            return;
        }
        if (pushedBack == null) {
            pushedBack = bytes;
        } else {
            byte[] both = new byte[bytes.length + pushedBack.length];
            System.arraycopy(bytes, 0, both, 0, bytes.length);
            System.arraycopy(pushedBack, 0, both, bytes.length, pushedBack.length);
            pushedBack = both;
        }
    }

    /** From now on the source is at its end (HTTP/1.0: once the answer is written). */
    void end() {
        ended = true;
    }

    void cutIfWaitingLongerThan(long timeoutNanos, long nowNanos) {
        long since = state.get();
        if (since > 0 && nowNanos - ORIGIN + 1 - since > timeoutNanos && state.compareAndSet(since, CUT)) {
            thread.interrupt();
        }
    }

    /** Positive and increasing: the time since this class was loaded, plus one. */
    private static long clock() {
        return System.nanoTime() - ORIGIN + 1;
    }
}
