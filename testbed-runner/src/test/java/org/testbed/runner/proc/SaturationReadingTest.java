package org.testbed.runner.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The parsers of the server's saturation readings, on this machine's own {@code /proc} (this JVM's
 * files, read as the server's are), and on texts of the shapes this machine does not have (a cgroup
 * with a CPU limit, v2's cpu.stat).
 */
class SaturationReadingTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void everyThreadOfThisJvmIsReadWithItsWaitAndSwitches() throws Exception {
        long tid = Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        ThreadSchedules threads = ThreadSchedules.read(SELF);
        assertThat(threads.threads()).containsKey(tid);
        assertThat(threads.threads().size()).as("about as many as /proc/self/task lists")
                .isGreaterThanOrEqualTo(Thread.activeCount());
        ThreadSchedules.Counts own = threads.threads().get(tid);
        String status = Files.readString(Path.of("/proc/self/task/" + tid + "/status"));
        assertThat(own.involuntarySwitches()).isLessThanOrEqualTo(ThreadSchedules.involuntarySwitches(status));
        assertThat(own.waitNanos()).isLessThanOrEqualTo(
                ThreadSchedules.schedstatWait(Files.readString(Path.of("/proc/self/task/" + tid + "/schedstat"))));
    }

    @Test
    void whatGrepPrintsOnAnotherMachineParsesAsTheLocalReading() throws Exception {
        String schedstat = run("grep", "-H", "", "/proc/" + SELF + "/task/" + mainTid() + "/schedstat");
        String status = run("grep", "-H", "^nonvoluntary_ctxt_switches", "/proc/" + SELF + "/task/" + mainTid() + "/status");
        ThreadSchedules parsed = ThreadSchedules.parse(schedstat, status);
        assertThat(parsed.threads()).containsOnlyKeys(mainTid());
        assertThat(parsed.threads().get(mainTid()).waitNanos())
                .isEqualTo(ThreadSchedules.schedstatWait(schedstat.substring(schedstat.indexOf(':') + 1)));
        assertThat(ThreadSchedules.parse("/proc/9/task/10/schedstat:100 200 3\n/proc/9/task/11/schedstat:5 6 7\n",
                "/proc/9/task/10/status:nonvoluntary_ctxt_switches:\t42\n").threads())
                .as("a thread that ended between the two greps is left out")
                .isEqualTo(Map.of(10L, new ThreadSchedules.Counts(100, 200, 42)));
    }

    @Test
    void threadsBornInTheWindowCountWholeAndThoseThatEndedAreCounted() {
        ThreadSchedules before = new ThreadSchedules(Map.of(1L, new ThreadSchedules.Counts(10_000, 1_000, 5),
                2L, new ThreadSchedules.Counts(20_000, 2_000, 7)));
        ThreadSchedules after = new ThreadSchedules(Map.of(1L, new ThreadSchedules.Counts(16_000, 4_000, 9),
                3L, new ThreadSchedules.Counts(700, 500, 1)));
        ThreadSchedules.Delta delta = after.since(before);
        assertThat(delta.runNanos()).as("thread 1's 6 µs and thread 3's whole 0.7 µs; thread 2's time after the first reading is lost")
                .isEqualTo(6_000 + 700);
        assertThat(delta.waitNanos()).isEqualTo(3_000 + 500);
        assertThat(delta.involuntarySwitches()).isEqualTo(4 + 1);
        assertThat(delta.started()).isEqualTo(1);
        assertThat(delta.ended()).isEqualTo(1);
    }

    @Test
    void tcpCountersOfThisJvmsNamespaceAgreeWithTheSystemsFiles() throws Exception {
        TcpCounters own = TcpCounters.read(SELF);
        TcpCounters system = TcpCounters.parse(Files.readString(Path.of("/proc/net/netstat")) + Files.readString(Path.of("/proc/net/snmp")));
        assertThat(system.listenOverflows()).as("the same namespace, read later").isGreaterThanOrEqualTo(own.listenOverflows());
        assertThat(system.retransSegs()).isGreaterThanOrEqualTo(own.retransSegs());
        assertThat(own.listenDrops()).as("every overflow is a drop too").isGreaterThanOrEqualTo(own.listenOverflows());
        assertThatThrownBy(() -> TcpCounters.parse("Tcp: RtoAlgorithm\nTcp: 1\n"))
                .hasMessageContaining("ListenOverflows");
    }

    /** A listener that never accepts, with a backlog of one, and twenty connections knocking: the kernel drops their handshakes. */
    @Test
    void aFullListenQueueShowsAsOverflows() throws Exception {
        TcpCounters before = TcpCounters.read(SELF);
        List<SocketChannel> clients = new ArrayList<>();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress("127.0.0.1", 0), 1);
            for (int i = 0; i < 20; i++) {
                SocketChannel client = SocketChannel.open();
                client.configureBlocking(false);
                client.connect(listener.getLocalAddress());
                clients.add(client);
            }
            TcpCounters delta = TcpCounters.read(SELF).minus(before);
            for (int i = 0; i < 100 && delta.listenOverflows() == 0; i++) {
                Thread.sleep(10); // the handshakes complete in softirq, a moment after connect() returns
                delta = TcpCounters.read(SELF).minus(before);
            }
            assertThat(delta.listenOverflows()).isPositive();
            assertThat(delta.listenDrops()).isGreaterThanOrEqualTo(delta.listenOverflows());
        } finally {
            for (SocketChannel client : clients) {
                client.close();
            }
        }
    }

    @Test
    void thisMachinesCgroupsAreFoundAndTheirLimitReadAsTheFilesSay() throws Exception {
        List<Path> candidates = CgroupCpu.candidates(Files.readString(Path.of("/proc/self/cgroup")),
                Files.readString(Path.of("/proc/self/mountinfo")));
        assertThat(candidates).as("a cgroup hierarchy with the cpu controller is mounted here").isNotEmpty();
        assertThat(candidates).allSatisfy(dir -> assertThat(dir).isDirectory());
        Optional<CgroupCpu> limited = CgroupCpu.locate(SELF);
        boolean anyLimit = false;
        for (Path dir : candidates) {
            Path max = dir.resolve("cpu.max");
            Path quota = dir.resolve("cpu.cfs_quota_us");
            anyLimit |= Files.isReadable(max) ? !Files.readString(max).startsWith("max")
                    : Files.isReadable(quota) && Long.parseLong(Files.readString(quota).strip()) > 0;
        }
        assertThat(limited.isPresent()).isEqualTo(anyLimit);
        if (limited.isPresent()) {
            assertThat(limited.get().read().periods()).isNotNegative();
        }
    }

    @Test
    void theNearestLimitUpwardsWinsInEitherHierarchy() {
        String cgroup = "12:cpu,cpuacct:/docker/abc\n0::/system.slice/testbed.service\n";
        String mountinfo = "30 25 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
                + "40 25 0:36 /docker /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
        List<Path> candidates = CgroupCpu.candidates(cgroup, mountinfo);
        assertThat(candidates).containsExactly(Path.of("/sys/fs/cgroup/system.slice/testbed.service"),
                Path.of("/sys/fs/cgroup/system.slice"), Path.of("/sys/fs/cgroup"),
                Path.of("/sys/fs/cgroup/cpu,cpuacct/abc"), Path.of("/sys/fs/cgroup/cpu,cpuacct"));
        Map<Path, String> files = Map.of(
                Path.of("/sys/fs/cgroup/system.slice/testbed.service/cpu.max"), "max 100000\n",
                Path.of("/sys/fs/cgroup/system.slice/cpu.max"), "150000 100000\n");
        Optional<CgroupCpu> found = CgroupCpu.nearestLimit(candidates, p -> Optional.ofNullable(files.get(p)));
        assertThat(found).contains(new CgroupCpu(Path.of("/sys/fs/cgroup/system.slice"), 1.5));
        Map<Path, String> v1 = Map.of(Path.of("/sys/fs/cgroup/cpu,cpuacct/abc/cpu.cfs_quota_us"), "50000\n",
                Path.of("/sys/fs/cgroup/cpu,cpuacct/abc/cpu.cfs_period_us"), "100000\n");
        assertThat(CgroupCpu.nearestLimit(candidates, p -> Optional.ofNullable(v1.get(p))))
                .contains(new CgroupCpu(Path.of("/sys/fs/cgroup/cpu,cpuacct/abc"), 0.5));
        assertThat(CgroupCpu.nearestLimit(candidates, p -> Optional.empty())).isEmpty();
    }

    @Test
    void cpuStatOfEitherVersionGivesThrottledTimeInMilliseconds() throws Exception {
        CgroupCpu.Throttling v2 = CgroupCpu.parseStat("usage_usec 9000\nnr_periods 40\nnr_throttled 12\nthrottled_usec 350000\n");
        assertThat(v2).isEqualTo(new CgroupCpu.Throttling(40, 12, 350.0));
        CgroupCpu.Throttling v1 = CgroupCpu.parseStat("nr_periods 40\nnr_throttled 12\nthrottled_time 350000000\n");
        assertThat(v1).isEqualTo(v2);
        Path real = Path.of("/sys/fs/cgroup/cpu/cpu.stat");
        if (Files.isReadable(real)) {
            assertThat(CgroupCpu.parseStat(Files.readString(real)).throttledPeriods()).isNotNegative();
        }
        assertThatThrownBy(() -> CgroupCpu.parseStat("usage_usec 9000\n")).hasMessageContaining("not a cgroup cpu.stat");
    }

    @Test
    void allowedCpusCountTheListsRanges() throws Exception {
        assertThat(SaturationReading.allowedCpus("Name:\tjava\nCpus_allowed_list:\t0-3,8,10-11\n")).isEqualTo(7);
        int here = SaturationReading.allowedCpus(Files.readString(Path.of("/proc/self/status")));
        long machineCpus = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu\\d+ .*")).count();
        assertThat(here).isBetween(1, (int) machineCpus);
        SaturationReading reading = SaturationReading.read(SELF, Optional.empty());
        assertThat(reading.usableCpus()).isEqualTo(here);
        assertThat(new SaturationReading(reading.threads(), reading.tcp(), 4, Optional.empty(), 1.5, 0).usableCpus()).isEqualTo(1.5);
    }

    private static long mainTid() {
        return SELF; // the main thread's id is the process's
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }
}
