package org.testbed.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A throwaway self-signed certificate for {@code TESTBED_TLS=true}: made at start, valid for
 * {@code localhost}, {@code 127.0.0.1} and {@code ::1}, kept in a PKCS12 key store in a temporary
 * directory that is deleted when the JVM exits. Load clients must not verify it ({@code curl -k},
 * {@code wrk} never does).
 *
 * <p>It is made by the JDK's own {@code keytool} ({@code java.home/bin/keytool}) in a subprocess,
 * so no library is needed and nothing of the JDK's internals is touched; that costs about half a
 * second of start-up, and only in TLS mode. The key is EC P-256 (ECDSA): what current servers
 * mostly present, and fast to make. Every stack gets the same key, so TLS costs compare fairly.
 *
 * <p>Use whichever form the server takes:
 * <pre>{@code
 * SelfSignedCertificate cert = SelfSignedCertificate.generate();
 * // Tomcat, Jetty, Vert.x: a key store file
 * cert.keyStore(); cert.password(); SelfSignedCertificate.KEY_STORE_TYPE; SelfSignedCertificate.ALIAS;
 * // Netty, the JDK's HttpsServer, anything taking JSSE objects
 * cert.keyManagerFactory(); cert.sslContext();
 * }</pre>
 */
public final class SelfSignedCertificate {
    /** The key store format: PKCS12, which every JDK since 9 reads by default. */
    public static final String KEY_STORE_TYPE = "PKCS12";
    /** The alias of the one key entry in the key store. */
    public static final String ALIAS = "testbed";
    /** The names the certificate is valid for. */
    public static final List<String> SUBJECT_ALTERNATIVE_NAMES = List.of("DNS:localhost", "IP:127.0.0.1", "IP:::1");

    private static final String DISTINGUISHED_NAME = "CN=localhost, OU=testbed, O=testbed";
    private static final int VALIDITY_DAYS = 365;
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;
    /** keytool reads the password from this environment variable, so it never shows in {@code ps}. */
    private static final String PASSWORD_VARIABLE = "TESTBED_KEYSTORE_PASSWORD";

    private final Path keyStore;
    private final String password;

    private SelfSignedCertificate(Path keyStore, String password) {
        this.keyStore = keyStore;
        this.password = password;
    }

    /**
     * Makes a new key pair and certificate in a new temporary PKCS12 file (deleted at JVM exit).
     *
     * @throws IllegalStateException when keytool is missing (a runtime image without it) or fails;
     *                               the message says which and why
     */
    public static SelfSignedCertificate generate() {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", isWindows() ? "keytool.exe" : "keytool");
        if (!Files.isExecutable(keytool)) {
            throw new IllegalStateException("Cannot make a self-signed certificate for TLS: " + keytool
                    + " is missing. Run with a full JDK or JRE (not a jlinked image without jdk.jartool/keytool).");
        }
        try {
            Path directory = Files.createTempDirectory("testbed-tls-");
            Path file = directory.resolve("testbed.p12");
            directory.toFile().deleteOnExit();
            file.toFile().deleteOnExit(); // registered last, so deleted first
            String password = newPassword();
            ProcessBuilder builder = new ProcessBuilder(keytool.toString(), "-genkeypair", "-noprompt",
                    "-alias", ALIAS,
                    "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                    "-dname", DISTINGUISHED_NAME,
                    "-ext", "SAN=" + String.join(",", SUBJECT_ALTERNATIVE_NAMES),
                    "-validity", Integer.toString(VALIDITY_DAYS),
                    "-storetype", KEY_STORE_TYPE, "-keystore", file.toString(),
                    "-storepass:env", PASSWORD_VARIABLE, "-keypass:env", PASSWORD_VARIABLE)
                    .redirectErrorStream(true);
            builder.environment().put(PASSWORD_VARIABLE, password);
            Process process = builder.start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0 || !Files.isRegularFile(file)) {
                throw new IllegalStateException("keytool failed (exit " + process.exitValue() + "): " + output);
            }
            return new SelfSignedCertificate(file, password);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot make a self-signed certificate: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while making a self-signed certificate", e);
        }
    }

    /** The PKCS12 key store file holding the key and certificate under {@link #ALIAS}. */
    public Path keyStore() {
        return keyStore;
    }

    /** The password of the key store and of the key in it (one password for both, as PKCS12 wants). */
    public String password() {
        return password;
    }

    /** The key store, loaded. */
    public KeyStore loadKeyStore() {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance(KEY_STORE_TYPE);
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + keyStore, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot load " + keyStore + ": " + e.getMessage(), e);
        }
    }

    /** Key managers presenting this certificate. */
    public KeyManagerFactory keyManagerFactory() {
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(loadKeyStore(), password.toCharArray());
            return factory;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot set up key managers: " + e.getMessage(), e);
        }
    }

    /** A server-side TLS context presenting this certificate (the JDK's default protocols and suites). */
    public SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagerFactory().getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot set up a TLS context: " + e.getMessage(), e);
        }
    }

    private static String newPassword() {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    private static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }

    @Override
    public String toString() {
        return "self-signed certificate for " + SUBJECT_ALTERNATIVE_NAMES + " in " + keyStore;
    }
}
