package org.testbed.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.Conditions;
import org.testbed.runfolder.csv.ResultRow;
import org.testbed.runfolder.csv.ResultsCsv;
import org.testbed.runfolder.csv.SampleRecord;
import org.testbed.runfolder.csv.SamplesCsv;
import org.testbed.runfolder.csv.StepRecord;
import org.testbed.runfolder.csv.StepsCsv;
import org.testbed.variant.VariantManifest;

/**
 * {@code ./testbed run --tls} end to end: the packaged runner starts the vertx variant (the
 * quickest to start) with TLS, drives three short steps over HTTPS against a real memcached (two
 * closed-model levels and an open-model rate), and every row says so; the driver kept its
 * connections (a handshake per connection, not per request).
 */
class TlsRunIT {

    @Test
    void aRunOverHttpsHandshakesOncePerConnection() throws Exception {
        Path root = RunnerJar.ROOT;
        assertThat(VariantManifest.load(root.resolve(VariantManifest.FILE_NAME)).find("vertx").jarIn(root))
                .as("the vertx jar, packaged before this test").isRegularFile();
        Path run = Path.of("target", "tls-run").toAbsolutePath();
        RunnerJar.deleteRecursively(run);
        String output = RunnerJar.run(150, "run", "--root", root.toString(), "--variants", "vertx", "--tls",
                "--scenarios", "mix", "--concurrency", "4,16", "--rate", "500", "--duration", "2s", "--warmup", "1s", "--repeat", "1", "--iterations", "1",
                "--run-id", "tls", "--out", run.toString());
        assertThat(output).contains("conditions tls");

        List<ResultRow> rows = ResultsCsv.read(run.resolve(ResultsCsv.FILE));
        assertThat(rows).hasSize(3);
        for (ResultRow r : rows) {
            assertThat(r.conditions()).isEqualTo(new Conditions(true, false, false));
            assertThat(r.throughput().errors()).as("errors of " + r).isZero();
            assertThat(r.throughput().rps()).isPositive();
        }
        List<StepRecord> steps = StepsCsv.TABLE.read(run.resolve(StepsCsv.FILE));
        assertThat(steps).hasSize(3);
        for (StepRecord s : steps) {
            assertThat(s.key().conditions().tls()).isTrue();
            // Keep-alive: one handshake per connection (closed model: made before the window); none per request.
            assertThat(s.driver().tlsHandshakes()).as("TLS handshakes of the step " + s.key().level())
                    .isPositive().isLessThanOrEqualTo(s.key().targetRps() > 0 ? s.driver().peakConnections() : s.key().concurrency());
            assertThat(Files.readString(run.resolve(s.files().raw()))).contains("tls_handshakes=" + s.driver().tlsHandshakes());
        }
        List<SampleRecord> samples = SamplesCsv.TABLE.read(run.resolve(SamplesCsv.FILE));
        assertThat(samples).extracting(SampleRecord::tlsHandshakes).allSatisfy(h -> assertThat(h).isPositive());
        assertThat(Files.readString(run.resolve(ResultsCsv.FILE)).lines().skip(1)).allSatisfy(l -> assertThat(l).endsWith(",tls"));
        assertThat(Files.readString(run.resolve("environment.json"))).contains("\"conditions\" : \"tls\"");
    }
}
