package org.testbed.runfolder;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fault of the store inside each measured window ({@code --fault}): what happens to it, how far
 * into the window, and for how long. Written {@code stall:5s+2s} on the command line and
 * {@code stall5s+2s} as a condition (the {@code conditions} field), so that steps with and without
 * it, or with two different ones, are never compared as the same step.
 *
 * @param kind what happens to the store
 * @param at when, from the window's start
 * @param length how long it lasts; zero for a restart at once
 */
public record FaultSpec(Kind kind, Duration at, Duration length) {
    /** Why a fault cannot hit a store the runner did not start. */
    public static final String NOT_OWN_STORE = "it stops or kills the memcached the runner started on this machine, and"
            + " this run's is not that one (MEMCACHED_SERVERS is set, or the servers run on another machine"
            + " with --server-host): unset MEMCACHED_SERVERS and run without --server-host";
    private static final String TIME = "(\\d+(?:\\.\\d+)?(?:ms|s))";
    private static final Pattern SPEC = Pattern.compile("([a-z]+):?" + TIME + "(?:\\+" + TIME + ")?");

    /**
     * What a fault does to the store. Each is carried out by the runner on its own memcached; one
     * that needs a proxy between the variant and the store (a reset connection) is a kind of its own.
     */
    public enum Kind {
        /** The store hangs: its connections stay open, nothing answers (SIGSTOP, then SIGCONT). */
        STALL("stall", true),
        /** The store dies and comes back empty on the same port, at once or after {@code length}. */
        RESTART("restart", false),
        /**
         * Every connection to the store is reset (TCP RST) for {@code length}, new ones too: the
         * variants reach the store through a proxy (Toxiproxy) for the whole window, which cuts them.
         */
        RESET("reset", true);

        private final String word;
        private final boolean needsLength;

        Kind(String word, boolean needsLength) {
            this.word = word;
            this.needsLength = needsLength;
        }

        public String word() {
            return word;
        }

        static Kind named(String word, String spec) {
            for (Kind k : values()) {
                if (k.word.equals(word)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown fault '" + word + "' in '" + spec + "'; faults are stall:AT+FOR"
                    + " (the store hangs), restart:AT[+FOR] (it is killed and restarted on the same port) and"
                    + " reset:AT+FOR (its connections are reset)");
        }
    }

    public FaultSpec {
        if (at.isNegative() || length.isNegative()) {
            throw new IllegalArgumentException("a fault's start and length are not negative");
        }
        if (kind.needsLength && length.isZero()) {
            throw new IllegalArgumentException("a " + kind.word + " needs a length: " + kind.word + ":5s+2s hangs the"
                    + " store for 2 s from 5 s into each window");
        }
    }

    /** {@code stall:5s+2s}, {@code restart:5s}, or the condition's form {@code stall5s+2s}. */
    public static FaultSpec parse(String spec) {
        String s = spec.strip().toLowerCase(Locale.ROOT);
        Matcher m = SPEC.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("cannot read the fault '" + spec + "': write KIND:AT+FOR, e.g. stall:5s+2s"
                    + " (the store hangs for 2 s, 5 s into each window) or restart:5s");
        }
        return new FaultSpec(Kind.named(m.group(1), spec), time(m.group(2)),
                m.group(3) == null ? Duration.ZERO : time(m.group(3)));
    }

    /** Whether {@code part} of a conditions field is (the start of) a fault. */
    static boolean isFault(String part) {
        return SPEC.matcher(part).matches();
    }

    /** Whether the variants must reach the store through a proxy for this fault. */
    public boolean needsProxy() {
        return kind == Kind.RESET;
    }

    /** When it is over, from the window's start. */
    public Duration end() {
        return at.plus(length);
    }

    /** As a condition: {@code stall5s+2s}. */
    public String label() {
        return kind.word + show(at) + (length.isZero() ? "" : "+" + show(length));
    }

    /** As the command line writes it: {@code stall:5s+2s}. */
    public String spec() {
        return kind.word + ":" + show(at) + (length.isZero() ? "" : "+" + show(length));
    }

    private static Duration time(String text) {
        if (text.endsWith("ms")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(text.substring(0, text.length() - 2))));
        }
        return Duration.ofMillis(Math.round(1000 * Double.parseDouble(text.substring(0, text.length() - 1))));
    }

    private static String show(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    @Override
    public String toString() {
        return label();
    }
}
