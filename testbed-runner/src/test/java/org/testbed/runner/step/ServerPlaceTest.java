package org.testbed.runner.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.testbed.runner.host.RemoteHostSettings;

class ServerPlaceTest {

    @Test
    void aServerHostIsTheOneChoiceOfWhereTheServersRun() {
        RemoteHostSettings there = new RemoteHostSettings("bench@server", 22, null, List.of(), "testbed", "server",
                8080, null);

        assertThat(ServerPlace.of(Optional.empty())).isEqualTo(ServerPlace.THIS_MACHINE);
        assertThat(ServerPlace.of(Optional.of(there))).isEqualTo(ServerPlace.SERVER_HOST);
    }

    @Test
    void onAServerHostNeitherTheServerNorMemcachedIsPinnedFromHere() {
        Pinning pinning = ServerPlace.SERVER_HOST.pinning("0", null, "0");

        assertThat(pinning.serverCpus()).isEmpty();
        assertThat(pinning.memcachedCpus()).isEmpty();
    }
}
