package org.testbed.runfolder;

import java.util.regex.Pattern;

/**
 * A known CPU cost planted in every item request: the variants are started with {@code TESTBED_WORK_US}
 * set to {@link #micros()}, and each item request first does that many microseconds of pure CPU work
 * (at the machine's full speed) on the thread that handles it. A run under {@code plain,work20us}
 * therefore holds a change of known size, for checking that {@code compare} finds it.
 *
 * <p>Written in the {@code conditions} field as {@code work20us}: whole microseconds, 1 to
 * {@link #MAX_MICROS} (0 is no work, which is {@code plain}).
 */
public record PlantedWork(int micros) {
    /** The service's own limit on {@code TESTBED_WORK_US} (its {@code CpuWork.MAX_MICROS}; a runner test ties the two). */
    public static final int MAX_MICROS = 100_000;

    private static final String PREFIX = "work";
    private static final Pattern FORM = Pattern.compile(PREFIX + "(\\d{1,6})us");

    public PlantedWork {
        if (micros < 1 || micros > MAX_MICROS) {
            throw new IllegalArgumentException(outOfRange(Integer.toString(micros)));
        }
    }

    /** Whether {@code part} of a conditions field is meant as a planted work ({@code work...}), well written or not. */
    static boolean isLabel(String part) {
        return part.startsWith(PREFIX);
    }

    /** {@code work20us} read back; anything else starting with {@code work} is refused saying the form. */
    static PlantedWork fromLabel(String part) {
        var m = FORM.matcher(part);
        if (!m.matches()) {
            throw new IllegalArgumentException("a planted work is whole microseconds of CPU per item request, written"
                    + " work20us (1 to " + MAX_MICROS + "); not '" + part + "'");
        }
        int micros = Integer.parseInt(m.group(1));
        if (micros < 1 || micros > MAX_MICROS) {
            throw new IllegalArgumentException(outOfRange(part));
        }
        return new PlantedWork(micros);
    }

    private static String outOfRange(String what) {
        return "a planted work is 1 to " + MAX_MICROS + " microseconds per item request (work1us..work" + MAX_MICROS
                + "us; plain is none), not '" + what + "'";
    }

    /** The part of the conditions field. */
    public String label() {
        return PREFIX + micros + "us";
    }

    @Override
    public String toString() {
        return label();
    }
}
