package org.testbed.runner.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runner.proc.GcCounters;
import org.testbed.driver.proc.ProcStat;

/**
 * The server's figures as a remote reading prints them (stat, status, base64 hsperfdata), parsed
 * as the local ones are: here from this test JVM's own files, which are what the remote side cats.
 */
class RemoteReadingTest {

    @Test
    void aReadingOfThisJvmParsesAsItsLocalFiles() throws Exception {
        long pid = ProcessHandle.current().pid();
        Path perfData = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(pid));
        assertThat(perfData).as("this JVM's hsperfdata file").isRegularFile();
        String output = Files.readString(Path.of("/proc/self/stat")) + "\n@@\n" + Files.readString(Path.of("/proc/self/status"))
                + "@@\n" + Base64.getEncoder().encodeToString(Files.readAllBytes(perfData)) + "\n@@\n"
                + Files.readString(Path.of("/proc/stat"));

        ServerReading reading = RemoteServer.parse(output, "here");

        assertThat(reading.cpu().utime()).isPositive();
        assertThat(reading.cpu().utime()).isLessThanOrEqualTo(ProcStat.self().utime());
        assertThat(reading.memory().vmRssKb()).isPositive();
        assertThat(reading.gc().source()).isEqualTo("hsperfdata");
        assertThat(reading.gc().count()).isEqualTo(GcCounters.fromPerfData(perfData).count());
        assertThat(reading.machine().perCpu()).as("the machine's CPUs from /proc/stat").isNotEmpty();
    }

    @Test
    void noPerfDataFileThereIsSaidInsteadOfFailing() throws Exception {
        String output = Files.readString(Path.of("/proc/self/stat")) + "@@\n" + Files.readString(Path.of("/proc/self/status"))
                + "@@\n\n";
        ServerReading reading = RemoteServer.parse(output, "root@vm");
        assertThat(reading.machine()).isNull();
        assertThat(reading.gc().count()).isZero();
        assertThat(reading.gc().source()).isEqualTo("no hsperfdata on root@vm");
    }

    @Test
    void machineFactsKeepTheirSectionsAndFindArmModelsInLscpu() {
        Map<String, String> sections = MachineFacts.sections("@@host\nvm-arm\n@@arch\naarch64\n@@cpus\n4\n@@cpu_model\n\n"
                + "@@lscpu\nArchitecture: aarch64\nModel name: Neoverse-N1\n@@cpu_governor\ncpu0=performance\ncpu1=performance\n");
        assertThat(MachineFacts.cpuModel(sections)).isEqualTo("Neoverse-N1");
        JsonNode json = EnvironmentFile.JSON.valueToTree(MachineFacts.machine(sections));
        assertThat(json.path("cpus").asInt()).isEqualTo(4);
        assertThat(json.path("arch").asText()).isEqualTo("aarch64");
        assertThat(json.path("cpu_governor").path("cpu1").asText()).isEqualTo("performance");
    }
}
