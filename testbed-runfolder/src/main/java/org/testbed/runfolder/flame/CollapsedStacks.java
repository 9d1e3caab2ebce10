package org.testbed.runfolder.flame;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Profiler samples as collapsed stacks: one line per distinct stack, frames from the thread's root
 * to the innermost frame separated by {@code ;}, then a space and the number of samples. This is
 * async-profiler's {@code collapsed} output (with {@code ann}, kernel frames end in {@code _[k]})
 * and the input of Brendan Gregg's flamegraph.pl.
 */
public final class CollapsedStacks {
    /** The suffix async-profiler's {@code ann} option gives kernel frames. */
    static final String KERNEL = "_[k]";

    private final Map<String, Long> samples;

    private CollapsedStacks(Map<String, Long> samples) {
        this.samples = samples;
    }

    public static CollapsedStacks parse(String text) {
        Map<String, Long> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                continue;
            }
            try {
                long count = Long.parseLong(line.substring(space + 1).trim());
                samples.merge(line.substring(0, space), count, Long::sum);
            } catch (NumberFormatException e) {
                // not a stack line (a comment or a truncated last line): nothing to count
            }
        }
        return new CollapsedStacks(samples);
    }

    public static CollapsedStacks read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** The samples of several files (a step's repeats) added together. */
    public static CollapsedStacks readAll(Collection<Path> files) throws IOException {
        Map<String, Long> samples = new LinkedHashMap<>();
        for (Path file : files) {
            read(file).samples.forEach((stack, n) -> samples.merge(stack, n, Long::sum));
        }
        return new CollapsedStacks(samples);
    }

    /** Stack (frames joined by {@code ;}) to its number of samples. */
    public Map<String, Long> samples() {
        return samples;
    }

    /** The samples in the collapsed format again, one line per stack. */
    public String text() {
        StringBuilder text = new StringBuilder();
        samples.forEach((stack, n) -> text.append(stack).append(' ').append(n).append('\n'));
        return text.toString();
    }

    /** Writes {@link #text()} to {@code file}. */
    public Path write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.writeString(file, text(), StandardCharsets.UTF_8);
    }

    public long total() {
        return samples.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The samples taken while the CPU was in user mode: the innermost frame is not a kernel frame. */
    public CollapsedStacks userOnly() {
        return filter(stack -> !isKernel(leaf(stack)));
    }

    /** The samples taken while the CPU was in the kernel: the innermost frame is a kernel frame. */
    public CollapsedStacks kernelOnly() {
        return filter(stack -> isKernel(leaf(stack)));
    }

    private CollapsedStacks filter(Predicate<String> keep) {
        Map<String, Long> kept = new LinkedHashMap<>();
        samples.forEach((stack, n) -> {
            if (keep.test(stack)) {
                kept.put(stack, n);
            }
        });
        return new CollapsedStacks(kept);
    }

    static boolean isKernel(String frame) {
        return frame.endsWith(KERNEL);
    }

    static String leaf(String stack) {
        return stack.substring(stack.lastIndexOf(';') + 1);
    }
}
