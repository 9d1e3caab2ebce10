package org.testbed.runfolder.flame;

import org.testbed.runfolder.EnvironmentFile;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The frames of one profile, or of two (a differential flame graph), as a tree: each node is a
 * frame under its callers, with the samples of B (the profile drawn) and of A (the baseline) whose
 * stacks pass through it. Shares are of each profile's own total, so that profiles of different
 * lengths or rates compare: a frame "grew" when a larger part of B's time went through it.
 */
public final class FlameTree {
    final String name;
    long b;
    long a;
    final Map<String, FlameTree> children = new LinkedHashMap<>();

    private FlameTree(String name) {
        this.name = name;
    }

    /** The tree of one profile. */
    public static FlameTree of(CollapsedStacks profile) {
        return diff(null, profile);
    }

    /** The tree of {@code b} with {@code a}'s samples alongside; {@code a} may be null. */
    public static FlameTree diff(CollapsedStacks a, CollapsedStacks b) {
        FlameTree root = new FlameTree("all");
        b.samples().forEach((stack, n) -> root.add(stack.split(";"), n, true));
        if (a != null) {
            a.samples().forEach((stack, n) -> root.add(stack.split(";"), n, false));
        }
        return root;
    }

    private void add(String[] frames, long n, boolean inB) {
        FlameTree node = this;
        node.count(n, inB);
        for (String frame : frames) {
            node = node.children.computeIfAbsent(frame, FlameTree::new);
            node.count(n, inB);
        }
    }

    private void count(long n, boolean inB) {
        if (inB) {
            b += n;
        } else {
            a += n;
        }
    }

    /** Samples of B through this frame. */
    public long b() {
        return b;
    }

    /** Samples of A through this frame. */
    public long a() {
        return a;
    }

    public FlameTree child(String frame) {
        return children.get(frame);
    }

    /**
     * The change of this frame's share: B's part of its total minus A's part of its own, e.g. +0.05
     * when 5 % more of the time went through it.
     */
    public double shareDelta(FlameTree root) {
        return share(b, root.b) - share(a, root.a);
    }

    private static double share(long n, long total) {
        return total == 0 ? 0 : (double) n / total;
    }

    /**
     * The frames whose self share (samples where the frame is the innermost one) changed most,
     * frames merged by name wherever they sit in the tree, largest change first.
     */
    public List<SelfChange> topSelfChanges(int limit) {
        Map<String, long[]> self = new LinkedHashMap<>();
        collectSelf(self);
        List<SelfChange> changes = new ArrayList<>();
        self.forEach((frame, ab) -> changes.add(new SelfChange(frame, share(ab[0], a), share(ab[1], b))));
        changes.sort(Comparator.comparingDouble((SelfChange c) -> -Math.abs(c.delta())));
        return changes.subList(0, Math.min(limit, changes.size()));
    }

    private void collectSelf(Map<String, long[]> self) {
        long childA = 0;
        long childB = 0;
        for (FlameTree c : children.values()) {
            childA += c.a;
            childB += c.b;
            c.collectSelf(self);
        }
        if (a - childA > 0 || b - childB > 0) {
            long[] ab = self.computeIfAbsent(name, k -> new long[2]);
            ab[0] += a - childA;
            ab[1] += b - childB;
        }
    }

    /** A frame's self share in A and in B. */
    public record SelfChange(String frame, double shareA, double shareB) {
        public double delta() {
            return shareB - shareA;
        }
    }

    /**
     * The tree as JSON for the page: {@code n} name, {@code b} and {@code a} samples, {@code c}
     * children. Frames below {@code minShare} of both totals are left out to keep the page small
     * (their time still counts in their callers' width).
     */
    ObjectNode json(double minShare, long totalA, long totalB) {
        ObjectNode n = EnvironmentFile.JSON.createObjectNode();
        n.put("n", name);
        n.put("b", b);
        if (totalA > 0) {
            n.put("a", a);
        }
        ArrayNode c = n.putArray("c");
        for (FlameTree child : children.values()) {
            if (share(child.b, totalB) >= minShare || share(child.a, totalA) >= minShare) {
                c.add(child.json(minShare, totalA, totalB));
            }
        }
        return n;
    }
}
