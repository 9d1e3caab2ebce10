package org.testbed.runner.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeployerMessagesTest {

    @Test
    void aCopyClosedBySshdWithoutSftpSaysWhatToCheck() {
        assertThat(Deployer.explain("could not copy the jar to root@vm", "scp: Connection closed\n"))
                .isEqualTo("could not copy the jar to root@vm: scp: Connection closed"
                        + " (scp copies over SFTP: the sshd there needs a 'Subsystem sftp' line in its sshd_config)");
    }

    @Test
    void otherFailuresKeepWhatTheCommandSaidOnOneLine() {
        assertThat(Deployer.explain("could not put the jar in place on root@vm", "mv: cannot move\nNo space left on device"))
                .isEqualTo("could not put the jar in place on root@vm: mv: cannot move; No space left on device");
        assertThat(Deployer.explain("could not start x on root@vm", "")).isEqualTo("could not start x on root@vm");
    }
}
