package org.testbed.runner.host;

import java.nio.file.Path;
import java.util.List;

/**
 * Where {@code ./testbed run --server-host} puts the variants: the ssh login (as {@code deploy}
 * takes it), the directory the variants are deployed into there, and the address and port the
 * load goes to.
 *
 * @param destination {@code USER@HOST} (or an alias of ~/.ssh/config)
 * @param sshPort the ssh port
 * @param identity the private key to offer, or null for ssh's defaults
 * @param sshOptions extra {@code ssh -o} options
 * @param directory the remote directory; each variant goes into {@code DIRECTORY/<variant>}
 * @param address the address the load goes to (the server listens on every address there)
 * @param appPort the port the variants listen on there
 * @param java the java launcher there, or null to let {@code testbed-launch} choose (JAVA_HOME, PATH, the newest)
 */
public record RemoteHostSettings(String destination, int sshPort, Path identity, List<String> sshOptions,
                                 String directory, String address, int appPort, String java) {

    /** The remote directory of one variant. */
    public String directoryOf(String variant) {
        return directory + "/" + variant;
    }
}
