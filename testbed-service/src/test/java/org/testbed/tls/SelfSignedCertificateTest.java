package org.testbed.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SelfSignedCertificateTest {
    private static SelfSignedCertificate certificate;

    @BeforeAll
    static void generate() {
        certificate = SelfSignedCertificate.generate();
    }

    @Test
    void keyStoreHoldsAKeyAndACertificateForLocalhostAndLoopback() throws Exception {
        assertThat(certificate.keyStore()).isRegularFile();
        KeyStore store = certificate.loadKeyStore();
        assertThat(store.isKeyEntry(SelfSignedCertificate.ALIAS)).isTrue();
        X509Certificate x509 = (X509Certificate) store.getCertificate(SelfSignedCertificate.ALIAS);
        x509.checkValidity();
        assertThat(x509.getSubjectX500Principal().getName()).contains("CN=localhost");
        List<String> names = x509.getSubjectAlternativeNames().stream().map(name -> name.get(1).toString()).toList();
        assertThat(names).contains("localhost", "127.0.0.1", "0:0:0:0:0:0:0:1");
    }

    @Test
    void eachCertificateIsNewWithItsOwnPassword() {
        SelfSignedCertificate other = SelfSignedCertificate.generate();
        assertThat(other.keyStore()).isNotEqualTo(certificate.keyStore());
        assertThat(other.password()).isNotEqualTo(certificate.password()).hasSizeGreaterThanOrEqualTo(16);
    }

    /** A TLS handshake against the context, verified by a client that trusts only this certificate, by host name. */
    @Test
    void sslContextServesTlsThatAClientTrustingTheCertificateAccepts() throws Exception {
        SSLContext server = certificate.sslContext();
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(certificate.loadKeyStore());
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, trust.getTrustManagers(), null);

        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try (SSLSocket accepted = (SSLSocket) listener.accept(); OutputStream out = accepted.getOutputStream()) {
                    out.write("hello".getBytes(StandardCharsets.US_ASCII));
                } catch (Exception e) {
                    // the client's assertion reports it
                }
            });
            acceptor.start();
            try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("localhost", listener.getLocalPort())) {
                javax.net.ssl.SSLParameters parameters = socket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS"); // checks the SAN against "localhost"
                socket.setSSLParameters(parameters);
                InputStream in = socket.getInputStream();
                assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("hello");
                assertThat(socket.getSession().getProtocol()).startsWith("TLSv1.");
            }
            acceptor.join(5000);
        }
    }
}
