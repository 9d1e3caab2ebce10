package org.testbed.runner.env;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.testbed.runfolder.Machine;

/**
 * What a {@code java} launcher is: vendor, version, VM, and the flags it ends up with (its
 * ergonomics: collector, heap sizes), read by running it once with
 * {@code -XshowSettings:properties -XX:+PrintCommandLineFlags -version}.
 *
 * @param osArch its {@code os.arch} as {@code uname -m} names it: the arch of the code it runs (under an
 *               emulator, not its machine's); empty when it did not say
 */
public record JdkInfo(String java, String home, int feature, String vendor, String version, String vmName,
                      String flags, String osArch) {

    /** The CSV's {@code jdk} value, e.g. {@code 17.0.16+8-Debian-1deb12u1}. */
    public String label() {
        return version;
    }

    public static JdkInfo probe(Path java, List<String> jvmArgs) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmArgs);
        command.addAll(List.of("-XshowSettings:properties", "-XX:+PrintCommandLineFlags", "-version"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("'" + java + " -version' did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return parse(java.toString(), out);
    }

    public static JdkInfo parse(String java, String out) {
        String flags = "";
        for (String line : out.split("\n")) {
            if (line.startsWith("-XX:")) {
                flags = line.strip();
                break;
            }
        }
        String feature = property(out, "java.specification.version");
        int f;
        try {
            f = Integer.parseInt(feature.startsWith("1.") ? feature.substring(2) : feature);
        } catch (NumberFormatException e) {
            f = 0;
        }
        return new JdkInfo(java, property(out, "java.home"), f, property(out, "java.vendor"),
                property(out, "java.runtime.version"), property(out, "java.vm.name"), flags,
                property(out, "os.arch").isEmpty() ? "" : Machine.archName(property(out, "os.arch")));
    }

    private static String property(String out, String name) {
        for (String line : out.split("\n")) {
            String t = line.strip();
            if (t.startsWith(name + " = ")) {
                return t.substring(name.length() + 3).strip();
            }
        }
        return "";
    }
}
