package org.testbed.runfolder.environment;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * environment.json's {@code network_path} in a two-machine run: the interfaces each side sends on
 * and the round trips to each variant, so that a compare of two server machines shows when the
 * network, not the server, differs.
 *
 * @param loadMachineAddressSeenByServer this machine's address as the server's machine sees it (ssh's client address)
 * @param serverInterface {@code DEV mtu N} of the interface the server's machine answers on
 * @param loadInterface {@code DEV mtu N} of the interface this machine sends the load on
 * @param healthRoundTrips the health round trips of each variant, by name; absent until a variant has started
 */
@EnvironmentSection
public record NetworkPathSection(String loadMachineAddressSeenByServer, String serverInterface, String loadInterface,
                                 @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, RoundTrips> healthRoundTrips) {
}
