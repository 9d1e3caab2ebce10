package org.testbed.runner.step;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testbed.runner.env.JdkInfo;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;

/**
 * Which JDK runs each variant. Like for like by default: when a JDK 21+ is available every
 * variant runs on it (the newest found), so that {@code spring-tomcat} against
 * {@code spring-tomcat-virtual} compares two thread models and not also two JDKs. {@code --java}
 * chooses one JDK for all; {@code --mixed-jdks} asks for each variant's oldest suitable JDK
 * instead (the run is then flagged as mixed). Variants no JDK here can run are left out, with
 * the reason.
 */
final class JdkChoice {
    /** The first release with virtual threads: the JDK every variant can share. */
    static final int SHARED_RELEASE = 21;

    private final RunSettings settings;
    private final PrintStream console;
    private final Map<Path, JdkInfo> probed = new HashMap<>();
    private final List<String> skipped = new ArrayList<>();

    JdkChoice(RunSettings settings, PrintStream console) {
        this.settings = settings;
        this.console = console;
    }

    /** The JDK launcher of each variant that can run, in the settings' order. */
    Map<Variant, Path> choose() throws IOException {
        Map<Variant, Path> chosen = new LinkedHashMap<>();
        Optional<Path> shared = settings.servers().java()
                .or(() -> settings.servers().mixedJdks() ? Optional.empty() : Jdks.javaFor(SHARED_RELEASE));
        for (Variant variant : settings.servers().variants()) {
            Path java = shared.orElseGet(() -> Jdks.javaFor(variant.minJdk()).orElse(null));
            if (java == null) {
                skip(variant.name() + ": " + Jdks.missing(variant.minJdk()));
                continue;
            }
            int feature = info(java).feature();
            if (feature < variant.minJdk()) {
                skip(variant.name() + " needs JDK " + variant.minJdk() + "+, " + java + " is " + feature + ": not run");
                continue;
            }
            chosen.put(variant, java);
        }
        List<String> labels = chosen.values().stream().distinct().map(this::label).toList();
        if (labels.size() > 1) {
            console.println("-- note: variants run on different JDKs " + labels
                    + (settings.servers().mixedJdks() ? " (--mixed-jdks); the report flags it" : ""));
        } else if (shared.isEmpty() && !settings.servers().mixedJdks()) {
            console.println("-- note: no JDK " + SHARED_RELEASE + "+ found, so the virtual-thread variants cannot run;"
                    + " set JAVA21_HOME or install one to compare every variant on one JDK");
        }
        return chosen;
    }

    List<String> skipped() {
        return skipped;
    }

    private void skip(String why) {
        skipped.add(why);
        console.println("-- " + why);
    }

    String label(Path java) {
        try {
            return info(java).label();
        } catch (IOException e) {
            return java.toString();
        }
    }

    /** The JDK behind {@code java}, probed once, under the server's pinning (the JVM sizes itself from the CPUs it sees). */
    JdkInfo info(Path java) throws IOException {
        JdkInfo info = probed.get(java);
        if (info == null) {
            info = probeUnder(Pinning.prefix(settings.servers().pinning().serverCpus()), java);
            probed.put(java, info);
        }
        return info;
    }

    private JdkInfo probeUnder(List<String> prefix, Path java) throws IOException {
        if (prefix.isEmpty()) {
            return JdkInfo.probe(java, settings.servers().jvmArgs());
        }
        Path wrapper = Files.createTempFile("testbed-java-", ".sh");
        try {
            Files.writeString(wrapper, "#!/bin/sh\nexec " + String.join(" ", prefix) + " '" + java + "' \"$@\"\n");
            wrapper.toFile().setExecutable(true);
            JdkInfo info = JdkInfo.probe(wrapper, settings.servers().jvmArgs());
            return new JdkInfo(java.toString(), info.home(), info.feature(), info.vendor(), info.version(),
                    info.vmName(), info.flags(), info.osArch());
        } finally {
            Files.deleteIfExists(wrapper);
        }
    }
}
