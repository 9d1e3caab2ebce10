package org.testbed.scenario;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parameter of the scenario library (a load shape's, a workload's) outside what is allowed. It
 * keeps apart which parameter, the value given and what is allowed, so that a tool can report it
 * under its own name for that parameter: Gatling's {@code -Dusers} is a staircase's {@code to}.
 *
 * <p>{@link #allowed} may refer to other parameters as {@code {name}}: "at least {from}". The
 * message names them with their values: {@code to 20 must be at least from (50)}.
 */
public final class InvalidParameterException extends IllegalArgumentException {
    private static final Pattern REFERENCE = Pattern.compile("\\{([A-Za-z0-9]+)}");

    private final String parameter;
    private final String value;
    private final String allowed;
    private final Map<String, String> references;

    /**
     * @param parameter the parameter's name, e.g. {@code to}
     * @param value the value it was given
     * @param allowed what it must be, after "must be": "at least {from}", "a whole number >= 1"
     * @param references for each {@code {name}} in {@code allowed}: the name, then its value
     */
    public InvalidParameterException(String parameter, Object value, String allowed, Object... references) {
        super(parameter + " " + value + " must be " + render(allowed, pairs(references), (name, v) -> name + " (" + v + ")"));
        this.parameter = parameter;
        this.value = String.valueOf(value);
        this.allowed = allowed;
        this.references = pairs(references);
    }

    public String parameter() {
        return parameter;
    }

    public String value() {
        return value;
    }

    /** What is allowed, each parameter it refers to written as {@code name.apply(parameter, its value)}. */
    public String allowed(BiFunction<String, String, String> name) {
        return render(allowed, references, name);
    }

    private static String render(String allowed, Map<String, String> references, BiFunction<String, String, String> name) {
        Matcher reference = REFERENCE.matcher(allowed);
        StringBuilder out = new StringBuilder();
        while (reference.find()) {
            String other = reference.group(1);
            reference.appendReplacement(out, Matcher.quoteReplacement(name.apply(other, references.getOrDefault(other, "?"))));
        }
        reference.appendTail(out);
        return out.toString();
    }

    private static Map<String, String> pairs(Object... references) {
        if (references.length % 2 != 0) {
            throw new IllegalArgumentException("references come in pairs: name, value");
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < references.length; i += 2) {
            map.put(String.valueOf(references[i]), String.valueOf(references[i + 1]));
        }
        return map;
    }
}
