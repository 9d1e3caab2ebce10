package org.testbed.runfolder.stats;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.testbed.runfolder.figure.Figure;

/**
 * How precise a run's figures should be: for each scenario (or all), the widest interval a step may
 * keep, as the half-width in per cent of its centre ({@link ForkedSamples.Estimate#halfWidthPct}),
 * and which figures it holds for. {@code 5%} asks every step's throughput and CPU per request to be
 * known within ±5 %; {@code delay:10%:rps,cpu,p99} asks the delay scenario's p99 too, within ±10 %.
 * A rule for a scenario replaces the general one for that scenario.
 *
 * @param rules the rules in the order given; at most one per scenario, and one general rule (scenario {@code ""})
 */
public record PrecisionTarget(List<Rule> rules) {
    /** No target: every step gets the planned forks and nothing more. */
    public static final PrecisionTarget NONE = new PrecisionTarget(List.of());

    /** The figures a target can hold for: those steps.csv keeps an interval of. */
    public static final Set<Figure> TARGETABLE = EnumSet.of(Figure.RPS, Figure.P99, Figure.CPU);

    static Figure figure(String key) {
        return Figure.named(key).filter(TARGETABLE::contains).orElseThrow(() -> new IllegalArgumentException(
                "unknown figure '" + key + "' in --precision; one of "
                        + TARGETABLE.stream().map(Figure::key).collect(Collectors.joining(", "))));
    }

    /** Throughput and CPU per request: the figures a target holds for unless it names others. */
    public static final Set<Figure> DEFAULT_FIGURES = EnumSet.of(Figure.RPS, Figure.CPU);

    /**
     * @param scenario the scenario it holds for, or {@code ""} for every scenario without a rule of its own
     * @param pct the widest half-width allowed, in per cent
     * @param figures the figures it holds for
     */
    public record Rule(String scenario, double pct, Set<Figure> figures) {
        public Rule {
            figures = Set.copyOf(figures);
        }

        /** {@code mix ±5 % (rps, cpu)}. */
        public String describe() {
            return (scenario.isEmpty() ? "every scenario" : scenario) + " ±" + percent(pct) + " % ("
                    + figures.stream().sorted().map(Figure::key).collect(Collectors.joining(", ")) + ")";
        }
    }

    public PrecisionTarget {
        rules = List.copyOf(rules);
    }

    /**
     * Parses the {@code --precision} values: each {@code [SCENARIO:]PCT[%][:FIGURE,FIGURE...]}, the
     * percentage above 0 and at most 100, the figures among {@code rps}, {@code p99}, {@code cpu}.
     */
    public static PrecisionTarget parse(List<String> specs) {
        Map<String, Rule> rules = new LinkedHashMap<>();
        for (String spec : specs) {
            for (String one : spec.split(";")) {
                if (one.isBlank()) {
                    continue;
                }
                Rule rule = parseRule(one.strip());
                if (rules.put(rule.scenario(), rule) != null) {
                    throw new IllegalArgumentException("--precision names " + (rule.scenario().isEmpty() ? "a general target"
                            : "scenario " + rule.scenario()) + " twice");
                }
            }
        }
        return new PrecisionTarget(new ArrayList<>(rules.values()));
    }

    private static Rule parseRule(String spec) {
        String[] parts = spec.split(":", -1);
        String scenario = "";
        String pct;
        String figures = null;
        if (parts.length == 1) {
            pct = parts[0];
        } else if (parts.length == 2 && looksLikePercentage(parts[0])) {
            pct = parts[0];
            figures = parts[1];
        } else if (parts.length == 2) {
            scenario = parts[0];
            pct = parts[1];
        } else if (parts.length == 3) {
            scenario = parts[0];
            pct = parts[1];
            figures = parts[2];
        } else {
            throw new IllegalArgumentException("--precision takes [SCENARIO:]PCT[:FIGURES], e.g. 5% or delay:10%:rps,cpu,p99, not '"
                    + spec + "'");
        }
        double value;
        try {
            value = Double.parseDouble(pct.strip().replaceFirst("%$", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--precision '" + spec + "': '" + pct + "' is not a percentage (5%)");
        }
        if (!(value > 0) || value > 100) {
            throw new IllegalArgumentException("--precision '" + spec + "': the half-width must be above 0 and at most 100 %");
        }
        Set<Figure> set = EnumSet.noneOf(Figure.class);
        if (figures == null || figures.isBlank()) {
            set.addAll(DEFAULT_FIGURES);
        } else {
            for (String f : figures.split(",")) {
                set.add(figure(f.strip().toLowerCase(Locale.ROOT)));
            }
        }
        return new Rule(scenario.strip(), value, set);
    }

    private static boolean looksLikePercentage(String s) {
        return s.strip().matches("[0-9.]+%?");
    }

    /** Whether the run has any target. */
    public boolean isPresent() {
        return !rules.isEmpty();
    }

    /** The rule for {@code scenario}: its own, else the general one, else none. */
    public Optional<Rule> forScenario(String scenario) {
        Optional<Rule> own = rules.stream().filter(r -> r.scenario().equals(scenario)).findFirst();
        return own.isPresent() ? own : rules.stream().filter(r -> r.scenario().isEmpty()).findFirst();
    }

    /** {@code mix ±5 % (rps, cpu); delay ±10 % (cpu, p99, rps)}, or {@code none}. */
    public String describe() {
        return rules.isEmpty() ? "none" : rules.stream().map(Rule::describe).collect(Collectors.joining("; "));
    }

    /** A percentage as given: {@code 5}, {@code 0.01}, {@code 2.5}. */
    public static String percent(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
