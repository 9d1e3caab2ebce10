package org.testbed.jmeter.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.ssh.SharedConnection;

/**
 * A load machine's lifeline, run by bash here as ssh runs it there: ready at once, and when its input
 * ends the run's folders go, those marked as the run's only.
 */
class LoadHostsLifelineTest {

    @Test
    void whenItsInputEndsTheMarkedFoldersAreRemovedAndNoOther(@TempDir Path dir) throws Exception {
        Path runs = Files.createDirectories(dir.resolve("run-1/jmeter"));
        Files.createFile(dir.resolve("run-1").resolve(LoadHosts.REMOVE_AT_END));
        Path unmarked = Files.createDirectories(dir.resolve("run-2"));
        Process lifeline = new ProcessBuilder("bash", "-c", LoadHosts.LIFELINE, "lifeline", dir.resolve("run-1").toString(),
                unmarked.toString()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(lifeline.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo(SharedConnection.READY);
            assertThat(runs).isDirectory();
            lifeline.getOutputStream().close();
            assertThat(lifeline.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(lifeline.exitValue()).isZero();
        assertThat(dir.resolve("run-1")).doesNotExist();
        assertThat(unmarked).isDirectory();
    }
}
