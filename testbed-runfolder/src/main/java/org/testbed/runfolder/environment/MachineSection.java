package org.testbed.runfolder.environment;

import java.util.Optional;

/**
 * A machine as environment.json describes it: the load machine's {@code machine}, and the first
 * keys of a two-machine run's {@code server_machine} (gathered there over ssh, with the same names).
 *
 * @param host its host name
 * @param arch {@code x86_64} or {@code aarch64}, as {@code uname -m} says
 * @param cpus the CPUs it gives the run, before any pinning
 * @param cpuModel the CPU model (/proc/cpuinfo's model name, or lscpu's on arm64)
 * @param kernel {@code uname -srvm}
 * @param os the distribution's pretty name
 * @param cpuGovernor the frequency governor of each CPU, or why there is none
 * @param memoryTotal /proc/meminfo's MemTotal line
 * @param lscpu lscpu's full output
 * @param clkTck the kernel's clock ticks per second (the unit of /proc's CPU times)
 * @param perfEventParanoid {@code /proc/sys/kernel/perf_event_paranoid}
 * @param allowedCpus the server's machine only: the CPUs a process there may use
 * @param role in a two-machine run: {@code load} or {@code server}
 */
@EnvironmentSection
public record MachineSection(String host, String arch, int cpus, String cpuModel, String kernel, String os,
                             CpuGovernors cpuGovernor, String memoryTotal, String lscpu, long clkTck,
                             String perfEventParanoid, Optional<String> allowedCpus, Optional<String> role) {

    /** The same machine, with its role in a two-machine run. */
    public MachineSection withRole(String newRole) {
        return new MachineSection(host, arch, cpus, cpuModel, kernel, os, cpuGovernor, memoryTotal, lscpu, clkTck,
                perfEventParanoid, allowedCpus, Optional.of(newRole));
    }
}
