package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.figure.Figure;

/**
 * {@code run --conditions plain,metrics,tls+gzip}: one run starts the variant afresh under each set
 * of conditions and says which each row measured. With metrics the variant is scraped once a second
 * during the step; with gzip over HTTPS and 10 KB payloads the item answers come compressed and are
 * inflated and checked; and {@code compare --conditions plain:metrics} prices the metrics within
 * the one run.
 */
class ConditionsRunIT {

    @Test
    void oneRunMeasuresEachConditionAndComparePricesOne() throws Exception {
        Path run = Path.of("target", "conditions-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(300, "run", "--root", RunnerJar.ROOT.toString(), "--variants", "vertx",
                "--scenarios", "mix", "--concurrency", "8", "--conditions", "plain,metrics,tls+gzip", "--payload-size", "10240",
                "--duration", "3s", "--warmup", "2s", "--repeat", "1", "--iterations", "1", "--run-id", "conditions", "--out", run.toString());
        assertThat(output).contains("conditions plain,metrics,tls+gzip");

        Map<String, ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE)).stream()
                .collect(Collectors.toMap(r -> r.conditions().label(), Function.identity()));
        assertThat(rows).containsOnlyKeys("plain", "metrics", "tls+gzip");
        assertThat(rows.values()).allSatisfy(r -> {
            assertThat(r.throughput().errors()).as("errors of %s", r.conditions()).isZero();
            assertThat(r.throughput().rps()).isPositive();
        });
        Map<String, StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE)).stream()
                .collect(Collectors.toMap(s -> s.key().conditions().label(), Function.identity()));

        // Metrics: a 3 s window scraped once a second, the first at once: 3 or 4 scrapes, none failed.
        assertThat(Files.readString(run.resolve(steps.get("metrics").files().raw())))
                .containsPattern("metrics scraped [34] time\\(s\\), once per 1 s \\(0 failed\\), [1-9][0-9]+ bytes each");
        assertThat(steps.get("plain").files().raw()).isNotEqualTo(steps.get("metrics").files().raw());

        // gzip over HTTPS: the item answers (GET, PUT, POST; not the bodiless DELETE) came gzipped, were
        // inflated and checked without an error, over kept-alive connections.
        StepRecord gzip = steps.get("tls+gzip");
        assertThat(gzip.driver().gzipResponses()).as("gzip answers of %d requests", rows.get("tls+gzip").throughput().requests())
                .isGreaterThan(rows.get("tls+gzip").throughput().requests() / 2);
        assertThat(gzip.driver().tlsHandshakes()).isPositive().isLessThanOrEqualTo(8);
        assertThat(steps.get("plain").driver().gzipResponses()).isZero();
        // The bytes on the wire, a probe's figures: a 10 KB item answer (80 % of the mix) is most of a
        // response; the compressed answer is smaller (the payload's random letters compress by about a
        // quarter). A request's bytes are mostly the writes' 10 KB bodies, whose share of a 3 s window
        // moves by a few per cent from one window to the next: far more than the 23 bytes the gzip
        // header adds, so the two sides are only held to the same size, not ordered.
        double plainOut = steps.get("plain").figure(Figure.BYTES_OUT);
        assertThat(plainOut).as("response bytes per request, plain").isBetween(8_000.0, 12_000.0);
        assertThat(steps.get("tls+gzip").figure(Figure.BYTES_OUT)).as("response bytes per request, gzip").isLessThan(0.9 * plainOut);
        double plainIn = steps.get("plain").figure(Figure.BYTES_IN);
        assertThat(plainIn).as("request bytes per request, plain").isBetween(500.0, 5_000.0);
        assertThat(steps.get("tls+gzip").figure(Figure.BYTES_IN)).as("request bytes per request, gzip")
                .isBetween(0.75 * plainIn, 1.33 * plainIn);
        assertThat(run.resolve("logs").resolve("vertx-tls+gzip.log")).isRegularFile();

        String priced = RunnerJar.run(60, "compare", run.toString(), run.toString(), "--conditions", "plain:metrics",
                "--out", run.resolve("metrics-cost.html").toString());
        assertThat(priced).contains("A under plain, B under metrics").contains("matched 1 step(s)");
        // rps, p99 and cpu; the saturation readings (runq_wait, involuntary_cs) when read, then the probes' bytes
        List<String> table = priced.lines().filter(l -> l.startsWith("vertx")).toList();
        assertThat(table).extracting(l -> l.split("\\s+")[3]).startsWith("rps", "p99", "cpu").endsWith("bytes_in", "bytes_out")
                .filteredOn(m -> List.of("rps", "p99", "cpu").contains(m)).hasSize(3);
    }
}
