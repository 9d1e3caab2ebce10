package org.testbed.runfolder;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The machine columns of {@code results.csv} ({@code host}, {@code arch}, {@code cpu_model}) as
 * every driver reads them, so that rows from the runner and from Gatling name a machine alike.
 */
public final class Machine {
    private Machine() {
    }

    /** The host name, else {@code HOSTNAME}, else {@code unknown}. */
    public static String hostName() {
        String env = System.getenv("HOSTNAME");
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return env != null ? env : "unknown";
        }
    }

    /** {@code x86_64} or {@code aarch64}, as {@code uname -m} says (the JVM's amd64 is renamed). */
    public static String arch() {
        return archName(System.getProperty("os.arch", "unknown"));
    }

    /** A JVM's {@code os.arch} as {@code uname -m} names it: {@code amd64} is {@code x86_64}, {@code arm64} {@code aarch64}. */
    public static String archName(String a) {
        return switch (a) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> a;
        };
    }

    /** The first {@code model name} of /proc/cpuinfo, or lscpu's Model name (arm64 has no model name). */
    public static String cpuModel() {
        for (String line : read(Path.of("/proc/cpuinfo")).split("\n")) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        for (String line : lscpu().split("\n")) {
            if (line.strip().startsWith("Model name:")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        return "unknown";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** lscpu's output, or empty when it cannot run (not Linux, not installed). */
    private static String lscpu() {
        return command("lscpu");
    }

    /** A command's output (stdout and stderr), or an empty string if it cannot run within 20 s. */
    public static String command(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "";
            }
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
