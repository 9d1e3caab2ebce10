package org.testbed.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What OpenSSH prints for each way of failing, and the one line a user gets for it. */
class SshFailureTest {
    private final SshTarget target = SshTarget.of("ubuntu@vm-arm", 2222, null, List.of());

    @Test
    void opensshMessagesAreClassified() {
        assertThat(SshFailure.classify("ubuntu@vm-arm: Permission denied (publickey).")).isEqualTo(SshFailure.AUTHENTICATION);
        assertThat(SshFailure.classify("Received disconnect from 10.0.0.1 port 22:2: Too many authentication failures"))
                .isEqualTo(SshFailure.AUTHENTICATION);
        assertThat(SshFailure.classify("ssh: connect to host vm-arm port 2222: Connection refused"))
                .isEqualTo(SshFailure.CONNECTION_REFUSED);
        assertThat(SshFailure.classify("ssh: connect to host vm-arm port 2222: Connection timed out"))
                .isEqualTo(SshFailure.UNREACHABLE);
        assertThat(SshFailure.classify("ssh: connect to host vm-arm port 2222: No route to host")).isEqualTo(SshFailure.UNREACHABLE);
        assertThat(SshFailure.classify("ssh: Could not resolve hostname vm-arm: Name or service not known"))
                .isEqualTo(SshFailure.UNKNOWN_HOST);
        assertThat(SshFailure.classify("No ED25519 host key is known for [vm-arm]:2222 and you have requested strict checking.\n"
                + "Host key verification failed.")).isEqualTo(SshFailure.HOST_KEY);
        assertThat(SshFailure.classify("@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @")).isEqualTo(SshFailure.HOST_KEY);
        assertThat(SshFailure.classify("kex_exchange_identification: read: Connection reset by peer")).isEqualTo(SshFailure.OTHER);
    }

    @Test
    void messagesAreOneLineAndSayWhatToCheck() {
        assertThat(SshFailure.CONNECTION_REFUSED.message(target, "ssh: connect to host vm-arm port 2222: Connection refused"))
                .isEqualTo("nothing accepts ssh on vm-arm port 2222 (connection refused): is sshd running, is --port right?");
        String auth = SshFailure.AUTHENTICATION.message(SshTarget.of("ubuntu@vm-arm", 22, Path.of("pom.xml").toAbsolutePath(),
                List.of()), "ubuntu@vm-arm: Permission denied (publickey).\n");
        assertThat(auth).startsWith("ssh authentication to ubuntu@vm-arm failed with key ").contains("--identity")
                .contains("authorized_keys").doesNotContain("\n");
        assertThat(SshFailure.HOST_KEY.message(target, "line one\nHost key verification failed.\n"))
                .contains("known_hosts").contains("line one; Host key verification failed.").doesNotContain("\n");
    }

    @Test
    void aBadTargetIsRefusedBeforeSshRuns() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> SshTarget.of("user@", 22, null, List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--host must be USER@HOST");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> SshTarget.of("u@h", 70000, null, List.of())))
                .hasMessageContaining("--ssh-port must be an ssh port, 1-65535");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> SshTarget.of("u@h", 22, Path.of("no/such/key"), List.of())))
                .hasMessageContaining("--identity no/such/key: no such readable file");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> SshTarget.of("u@h", 22, null, List.of("BatchMode"))))
                .hasMessageContaining("--ssh-option takes NAME=VALUE");
    }
}
