package org.testbed.helidon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The jar's main class is Java 17 code (class file major version 61), so that JDK 17 can load it
 * and be told which JDK helidon-se needs; the server's own classes are Java 21's (65).
 */
class HelidonLauncherTest {

    @Test
    void theMainClassLoadsOnJava17AndTheServerNeeds21() throws IOException {
        assertThat(majorVersion(HelidonLauncher.class)).isEqualTo(61);
        assertThat(majorVersion(HelidonSeServer.class)).isEqualTo(65);
    }

    private static int majorVersion(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            DataInputStream data = new DataInputStream(in);
            assertThat(data.readInt()).as("class file magic").isEqualTo(0xCAFEBABE);
            data.readUnsignedShort(); // minor
            return data.readUnsignedShort();
        }
    }
}
