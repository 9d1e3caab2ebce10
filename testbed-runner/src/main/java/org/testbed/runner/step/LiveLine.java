package org.testbed.runner.step;

import java.io.Console;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import org.testbed.driver.SecondListener;

/**
 * The live line: while a window runs, its last whole second (requests per second, p99, errors) on
 * one console line rewritten in place once a second, as Gatling's periodic summary shows a run's
 * progress; it is cleared before anything else is printed, so what stays on screen and in the
 * scroll-back is the per-sample lines only. On a terminal only: when the output goes to a file or
 * a pipe (CI, {@code | tee}) nothing is printed per second, so that logs hold neither a line a
 * second nor carriage returns.
 */
public final class LiveLine {
    /** A window shorter than this is over before a line a second would tell anything. */
    static final Duration SHORTEST = Duration.ofSeconds(3);
    /** Longer lines wrap on an 80-column terminal, and a carriage return rewrites the last row only. */
    static final int WIDTH = 79;

    private final PrintStream out;
    private final boolean terminal;
    /** Characters of the live line on screen; 0 when none is. */
    private int shown;

    /** {@code terminal}: whether {@code out} is a terminal, where a line can be rewritten in place. */
    public LiveLine(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** The live line of {@code out}: shown when it is this process's standard output and that is a terminal. */
    public static LiveLine of(PrintStream out) {
        return new LiveLine(out, out == System.out && standardOutputIsTerminal());
    }

    /**
     * Whether standard output is a terminal. Up to JDK 21 a {@link Console} exists only when it is
     * (and standard input too); from JDK 22 one exists when redirected as well, and its
     * {@code isTerminal()} (absent from the 17 API this compiles against) tells.
     */
    static boolean standardOutputIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /**
     * What the driver tells each second of a window of {@code length}, labelled {@code what}:
     * {@code what  12/30 s  23456 req/s  p99 3.210 ms  errors 2}. Nobody listens off a terminal or
     * for a window shorter than {@link #SHORTEST}.
     */
    public SecondListener during(String what, Duration length) {
        if (!terminal || length.compareTo(SHORTEST) < 0) {
            return SecondListener.NONE;
        }
        long seconds = (length.toMillis() + 999) / 1000;
        return second -> show(String.format(Locale.ROOT, "   %s  %d/%d s  %.0f req/s  p99 %.3f ms%s", what,
                second.index() + 1, seconds, (double) second.requests(), second.latency().p99(),
                second.errors() > 0 ? "  errors " + second.errors() : ""));
    }

    /** Rewrites the live line with {@code text} (cut to {@link #WIDTH}), blanking what is left of a longer one. */
    synchronized void show(String text) {
        String line = text.length() > WIDTH ? text.substring(0, WIDTH) : text;
        out.print("\r" + line + " ".repeat(Math.max(0, shown - line.length())));
        out.flush();
        shown = line.length();
    }

    /** Blanks the live line, if one is shown, and leaves the cursor at the start of it for the next line. */
    public synchronized void clear() {
        if (shown > 0) {
            out.print("\r" + " ".repeat(shown) + "\r");
            out.flush();
            shown = 0;
        }
    }
}
