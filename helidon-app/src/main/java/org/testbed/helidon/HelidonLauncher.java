package org.testbed.helidon;

import java.lang.reflect.InvocationTargetException;
import java.util.EnumSet;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;

/**
 * The jar's main class, and the only class of this module compiled for Java 17: on an older JDK it
 * says which JDK {@code helidon-se} needs and exits with status 2, as the {@code *-virtual}
 * variants do, where the Helidon classes (Java 21 class files) would only fail to load. On 21 or
 * newer it hands over to {@link HelidonSeServer}, by name, so that this class never links to it.
 */
public final class HelidonLauncher {
    /**
     * {@code HelidonSeServer.VARIANT}, spelled again: no class of Java 21 may refer to this one, nor
     * this one to them, or javac compiles the other along for the wrong release.
     */
    private static final String VARIANT = "helidon-se";
    static final EnumSet<Mode> MODES = EnumSet.of(Mode.VIRTUAL);

    private HelidonLauncher() {
    }

    public static void main(String[] args) throws Throwable {
        TestbedConfig config = TestbedConfig.fromCommandLine(VARIANT, args, Mode.VIRTUAL);
        ServerStartup.prepare(VARIANT, config, MODES);
        try {
            Class.forName("org.testbed.helidon.HelidonSeServer")
                    .getMethod("serve", TestbedConfig.class)
                    .invoke(null, config);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
