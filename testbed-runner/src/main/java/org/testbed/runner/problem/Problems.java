package org.testbed.runner.problem;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The problems of one run, in the order they arose. A run with any finishes with the status that
 * says so (some steps measured, some not) and lists them in environment.json; a problem that holds
 * for every step ({@link Problem#everyStep}) is listed once.
 */
public final class Problems {
    private final List<Problem> problems = new ArrayList<>();

    /** Reports {@code problem}, unless it holds for every step and was reported already. */
    public synchronized void report(Problem problem) {
        if (problem.everyStep() && problems.stream().anyMatch(p -> p.text().equals(problem.text()))) {
            return;
        }
        problems.add(problem);
    }

    public synchronized void reportAll(Collection<Problem> more) {
        more.forEach(this::report);
    }

    /** A step that could not be measured ({@code step}: {@code vertx mix 64 users}); the session goes on with the next. */
    public Problem stepFailed(String step, String why) {
        return reported(Problem.of(step + ": " + why));
    }

    /**
     * A session of a variant that could not be run ({@code session}: the variant, with its conditions and
     * fork when the run has several); the run goes on with the next.
     */
    public Problem sessionFailed(String session, String why) {
        return reported(Problem.of(session + ": " + why));
    }

    /** A machine of the run that stopped answering: the run stops, the steps measured so far are kept. */
    public Problem machineLost(String why) {
        return reported(Problem.of(why));
    }

    /** A server on another machine that could not be stopped there. */
    public Problem serverNotStopped(String why) {
        return reported(Problem.of(why));
    }

    private Problem reported(Problem problem) {
        report(problem);
        return problem;
    }

    public synchronized boolean isEmpty() {
        return problems.isEmpty();
    }

    public synchronized int count() {
        return problems.size();
    }

    /** Their texts in order, as environment.json lists them. */
    public synchronized List<String> texts() {
        return problems.stream().map(Problem::text).toList();
    }
}
