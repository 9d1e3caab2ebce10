package org.testbed.runfolder.environment;

import java.util.List;
import java.util.Map;

/**
 * What the run was asked to do, known before it starts: the first keys of environment.json's
 * {@code run}, in the order they are written.
 *
 * @param runId the run's id (results.csv's {@code run_id})
 * @param startedAt when the run started, ISO-8601 in UTC ({@code 2024-01-02T03:04:05Z})
 * @param profile the profile whose defaults were used
 * @param commandLine the arguments the run was started with
 * @param scenarios each scenario's levels, as the console names them ({@code c=16}, {@code 1000/s})
 * @param durationS the measured time of each sample, in seconds
 * @param warmupS the longest warm-up of a variant, in seconds
 * @param warmupAtLeastS the shortest warm-up of a variant, in seconds
 * @param repeat the forks: how many times each variant was started afresh
 * @param iterations the samples of each step per fork
 * @param driver the load driver
 * @param conditions the conditions every variant ran under, as the console shows them ({@code plain,tls})
 * @param threads the worker threads of the sync variants
 * @param delayMs the delay of the slow backend call, in ms
 * @param payloadBytes the size of an item
 * @param maxConnections the driver's connection limit
 * @param requestTimeoutS the driver's per-request timeout, in seconds
 * @param saturationPct the driver's CPU share above which a step is flagged as maybe limited by the client
 * @param jvmArgs the JVM options every variant was started with
 * @param build the build the run measured: a fingerprint of the sources of the runner and of every variant in the
 *              run ({@code sha256:} and 16 hex digits), what {@code run --resume} holds the folder's build to; empty
 *              when not known (a folder written before it was recorded)
 */
@EnvironmentSection
public record RunPlan(String runId, String startedAt, String profile, List<String> commandLine,
                      Map<String, List<String>> scenarios, double durationS, double warmupS, double warmupAtLeastS,
                      int repeat, int iterations, String driver, String conditions, int threads, int delayMs,
                      int payloadBytes, int maxConnections, long requestTimeoutS, double saturationPct,
                      List<String> jvmArgs, String build) {

    public RunPlan {
        build = build == null ? "" : build; // an environment.json written before the build was recorded
    }
}
