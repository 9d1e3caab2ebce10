package org.testbed.runfolder.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.capacity.CapacityCsv;
import org.testbed.runfolder.capacity.CapacityRecord;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.price.PriceList;
import org.testbed.runfolder.price.Pricing;
import org.testbed.runfolder.price.ServerShare;

/**
 * Prices a run folder after the run ({@code ./testbed report RUN --price-per-hour X} or
 * {@code --prices FILE}), so that a run made without a price can be priced later and compared on
 * cost: the price is matched to the server's machine as the folder records it, the server's share
 * taken from its pinning, exactly as a run with the price would have done, and the folder is
 * rewritten with the costs: steps.csv's cost columns, capacity.csv's {@code cost_per_million} and
 * environment.json's {@code price} (which says it was added after the run). results.csv and
 * samples.csv, the measurements, are not touched. A price given again replaces the one before.
 */
public final class RunPricing {
    private RunPricing() {
    }

    /**
     * What pricing a folder did.
     *
     * @param pricing the price the folder now has
     * @param replaced the price it had before, if any
     * @param steps how many steps were priced
     * @param capacities how many capacity searches were priced
     */
    public record Priced(Pricing pricing, Optional<Pricing> replaced, int steps, int capacities) {
        /** For the console, one line. */
        public String describe() {
            return "priced at " + pricing.describe() + " (" + pricing.source() + "): " + steps + " step(s) in steps.csv"
                    + (capacities > 0 ? ", " + capacities + " capacity search(es) in capacity.csv" : "")
                    + " and environment.json rewritten with their costs"
                    + replaced.map(p -> "; this replaces the price it had, " + p.describe()).orElse("");
        }
    }

    /**
     * Prices the run folder {@code runDir} at {@code prices}, as {@code how} asked (for environment.json,
     * e.g. {@code ./testbed report --price-per-hour 0.0416}).
     */
    public static Priced apply(Path runDir, PriceList prices, String how) throws IOException {
        List<ResultRow> rows = ResultsCsv.read(runDir.resolve(ResultsCsv.FILE));
        Path stepsFile = runDir.resolve(StepsCsv.FILE);
        if (!Files.isRegularFile(stepsFile)) {
            throw new IllegalArgumentException(runDir + " has no " + StepsCsv.FILE + " (a Gatling run's folder, or one from"
                    + " before it existed): it has no steps to price");
        }
        List<StepRecord> steps = StepsCsv.TABLE.read(stepsFile);
        Path envFile = runDir.resolve(EnvironmentFile.NAME);
        JsonNode env = EnvironmentFile.read(envFile);
        Optional<Pricing> before = Pricing.read(runDir);
        Pricing pricing = prices.priceFor(machine(env, rows), share(env, rows, steps))
                .afterTheRun(how + " on " + Instant.now().truncatedTo(ChronoUnit.SECONDS));

        Map<ResultRow.StepKey, ResultRow> byKey = new HashMap<>();
        rows.forEach(r -> byKey.put(r.key(), r));
        StepsCsv.TABLE.write(stepsFile, steps.stream().map(s -> s.priced(pricing,
                byKey.containsKey(s.key()) ? byKey.get(s.key()).throughput().rps() : Double.NaN)).toList());
        Path capacityFile = runDir.resolve(CapacityCsv.FILE);
        List<CapacityRecord> capacities = CapacityCsv.TABLE.read(capacityFile);
        if (Files.isRegularFile(capacityFile)) {
            CapacityCsv.TABLE.write(capacityFile, capacities.stream().map(c -> c.priced(pricing)).toList());
        }
        // The tree, not the records: every key the file has is kept as it is, whichever runner wrote it.
        ObjectNode tree = env.isObject() ? (ObjectNode) env : EnvironmentFile.JSON.createObjectNode();
        tree.set("price", EnvironmentFile.JSON.valueToTree(pricing.section()));
        Files.writeString(envFile, EnvironmentFile.JSON.writeValueAsString(tree), StandardCharsets.UTF_8);
        return new Priced(pricing, before, steps.size(), capacities.size());
    }

    /**
     * The server's machine as the folder names it: a two-machine run's {@code server_machine} (with the
     * host ssh reached), else {@code machine}, else results.csv's columns.
     */
    static PriceList.Machine machine(JsonNode env, List<ResultRow> rows) {
        JsonNode m = env.path("server_machine").isObject() ? env.path("server_machine") : env.path("machine");
        Optional<String> sshHost = Optional.of(env.path("run").path("server_host").asText(""))
                .filter(h -> !h.isBlank()).map(RunPricing::sshHost);
        ResultRow.Origin origin = rows.isEmpty() ? null : rows.get(0).origin();
        return new PriceList.Machine(text(m, "host", origin == null ? "" : origin.host()), sshHost,
                text(m, "cpu_model", origin == null ? "" : origin.cpuModel()), text(m, "arch", origin == null ? "" : origin.arch()));
    }

    /**
     * The server's share of its machine as the run had it: the whole machine in a two-machine run,
     * else its pinned CPUs (environment.json's pinning, else steps.csv's) out of the machine's CPUs.
     */
    static ServerShare share(JsonNode env, List<ResultRow> rows, List<StepRecord> steps) {
        if (env.path("server_machine").isObject() || env.path("run").has("topology")) {
            return ServerShare.ownMachine();
        }
        JsonNode pinned = env.path("pinning").path("server_cpus");
        String serverCpus = pinned.isTextual() ? pinned.asText() : steps.isEmpty() ? "" : steps.get(0).setup().serverCpus();
        int cpus = env.path("machine").path("cpus").asInt(0);
        if (cpus <= 0 && !rows.isEmpty()) {
            cpus = rows.get(0).origin().cpus();
        }
        return ServerShare.of(serverCpus, cpus);
    }

    /** The host of an ssh destination: {@code vm-arm} of {@code ubuntu@vm-arm}. */
    static String sshHost(String destination) {
        int at = destination.lastIndexOf('@');
        return at >= 0 ? destination.substring(at + 1) : destination;
    }

    private static String text(JsonNode node, String key, String otherwise) {
        String v = node.path(key).asText("");
        return v.isBlank() ? otherwise : v;
    }
}
