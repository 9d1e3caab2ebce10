package org.testbed.runner.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testbed.runner.proc.CgroupCpu;
import org.testbed.runner.proc.TcpCounters;

/**
 * The scripts a {@code --server-host} run sends over ssh, run here with bash against this JVM (its
 * pid in a deploy directory's {@code testbed.pid}), parsed as the remote side's output is: the
 * saturation readings come out as this machine's own {@code /proc} says.
 */
class RemoteSaturationReadingTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void theReadingScriptGivesThisJvmsThreadsAndTcpCounters(@TempDir Path deployDir) throws Exception {
        Files.writeString(deployDir.resolve("testbed.pid"), Long.toString(SELF));
        TcpCounters before = TcpCounters.read(SELF);

        ServerReading reading = RemoteServer.parse(bash(RemoteServer.READ, deployDir.toString(), ""), "here");

        assertThat(reading.saturation()).isNotNull();
        long tid = Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        assertThat(reading.saturation().threads().threads()).containsKey(tid).containsKey(SELF);
        assertThat(reading.saturation().tcp().listenOverflows()).isGreaterThanOrEqualTo(before.listenOverflows());
        assertThat(reading.saturation().allowedCpus()).isPositive();
        assertThat(reading.saturation().throttling()).as("no cgroup given").isEmpty();
        assertThat(reading.cpu().utime()).isPositive();
    }

    @Test
    void theCgroupScriptsFindWhatTheLocalReadingFinds(@TempDir Path deployDir) throws Exception {
        Files.writeString(deployDir.resolve("testbed.pid"), Long.toString(SELF));
        String[] parts = bash(RemoteServer.READ_CGROUP, deployDir.toString()).split("(?m)^@@$\\R?", 2);
        List<Path> candidates = CgroupCpu.candidates(parts[0], parts[1]);
        assertThat(candidates).isNotEmpty();
        Map<String, String> files = RemoteServer.limitFiles(bash(RemoteServer.READ_LIMITS,
                candidates.stream().map(Path::toString).toArray(String[]::new)));
        assertThat(files).as("each hierarchy's limit files, by path").isNotEmpty();
        files.forEach((path, content) -> assertThat(content).isEqualTo(read(path)));
        assertThat(CgroupCpu.nearestLimit(candidates, p -> Optional.ofNullable(files.get(p.toString()))))
                .isEqualTo(CgroupCpu.locate(SELF));
    }

    @Test
    void aMachineWithoutSchedstatGivesNoReadingsRatherThanAWaitOfZero() throws Exception {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String status = Files.readString(Path.of("/proc/self/status"));
        String net = Files.readString(Path.of("/proc/self/net/netstat")) + Files.readString(Path.of("/proc/self/net/snmp"));
        String noThreads = stat + "@@\n" + status + "@@\n\n@@\n" + Files.readString(Path.of("/proc/stat"))
                + "@@\n@@\n@@\n" + net + "@@\n";
        ServerReading reading = RemoteServer.parse(noThreads, "there");
        assertThat(reading.saturation()).isNull();
        assertThat(reading.cpu().utime()).as("the rest of the reading stands").isPositive();
    }

    @Test
    void limitFilesAreSplitByTheirPathLines() {
        assertThat(RemoteServer.limitFiles("@@ /a/cpu.max\nmax 100000\n@@ /b/cpu.cfs_quota_us\n-1\n"))
                .containsExactly(Map.entry("/a/cpu.max", "max 100000\n"), Map.entry("/b/cpu.cfs_quota_us", "-1\n"));
        assertThat(RemoteServer.limitFiles("")).isEmpty();
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The script as {@code ServerMachine.script} runs it there: {@code bash -c SCRIPT testbed ARGS...}. */
    private static String bash(String script, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "-c", script, "testbed"));
        command.addAll(List.of(arguments));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }
}
