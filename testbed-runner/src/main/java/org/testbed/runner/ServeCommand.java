package org.testbed.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.testbed.memcached.MemcachedProcess;
import org.testbed.runner.build.ModuleJar;
import org.testbed.runner.build.StaleJars;
import org.testbed.runner.host.Reaper;
import org.testbed.runner.setup.ToolInstaller;
import org.testbed.variant.Jdks;
import org.testbed.variant.Variant;
import org.testbed.variant.VariantManifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "serve", sortOptions = false,
        customSynopsis = {"./testbed serve <variant> [options]", "       ./testbed serve --list"},
        header = {"Build the variant if its jar is missing or older than the sources, then run it in the"
                + " foreground (Ctrl-C stops it). Options go to the server: --port N, --host ADDR, --threads N,"
                + " --memcached-servers HOST:PORT,..., --tls, ... ('./testbed serve <variant> --help')."
                + " Memcached: MEMCACHED_SERVERS or --memcached-servers, else the one on 127.0.0.1:11211;"
                + " with neither, a private one on a free loopback port. 'serve --list' lists the variants:"
                + " name, mode, minimal JDK, description."},
        footer = {"", "Environment: TESTBED_JAVA_OPTS, JVM options for the variant (one string).%n"})
final class ServeCommand implements Callable<Integer> {
    private static final String MEMCACHED_OPTION = "--memcached-servers";
    private static final int DEFAULT_MEMCACHED_PORT = 11211;

    @ParentCommand
    Main main;

    @Option(names = {"-l", "--list"}, description = "List the variants: name, mode, minimal JDK, description")
    boolean list;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "This text (a variant's own options: serve <variant> --help)")
    boolean help;

    @Parameters(index = "0", arity = "0..1", paramLabel = "VARIANT", description = "A variant of variants.conf")
    String name;

    @Parameters(index = "1..*", paramLabel = "SERVER_OPTION", description = "Options for the server")
    List<String> serverArgs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path root = main.root();
        VariantManifest manifest = VariantManifest.load(root.resolve(VariantManifest.FILE_NAME));
        if (list) {
            printList(manifest, System.out);
            return 0;
        }
        if (name == null) {
            throw new IllegalArgumentException("serve needs a variant; see './testbed serve --list'");
        }
        Variant variant;
        try {
            variant = manifest.find(name);
        } catch (NoSuchElementException e) {
            throw new IllegalArgumentException("no variant '" + name + "'; known: " + String.join(", ",
                    manifest.variants().stream().map(Variant::name).toList()) + " ('./testbed serve --list' describes them)");
        }
        // The hook below stops the server and memcached on Ctrl-C or SIGTERM; the reaper on SIGKILL.
        Reaper.start();
        StaleJars.in(root).buildStale(List.of(new ModuleJar(variant.module(), variant.jar())));
        Path java = Jdks.javaFor(variant.minJdk()).orElseThrow(() -> new IllegalStateException(variant.name()
                + " needs JDK " + variant.minJdk() + " or newer and none was found (JAVA_HOME, JAVA21_HOME, /usr/lib/jvm)."
                + " Install one, e.g. apt-get install openjdk-21-jdk-headless."));
        List<String> args = new ArrayList<>(serverArgs);
        MemcachedProcess memcached = null;
        if (!memcachedConfigured() && !listening(DEFAULT_MEMCACHED_PORT)) {
            new ToolInstaller(System.err).ensureMemcached();
            memcached = MemcachedProcess.start();
            args.add(MEMCACHED_OPTION);
            args.add(memcached.address());
            System.err.println("testbed: no Memcached configured or on 127.0.0.1:" + DEFAULT_MEMCACHED_PORT
                    + "; started one on " + memcached.address() + " for this session");
        }
        List<String> command = new ArrayList<>(List.of(java.toString()));
        String javaOpts = System.getenv("TESTBED_JAVA_OPTS");
        if (javaOpts != null && !javaOpts.isBlank()) {
            command.addAll(List.of(javaOpts.strip().split("\\s+")));
        }
        command.addAll(List.of("-jar", variant.jarIn(root).toString(), "--mode", variant.mode()));
        command.addAll(args);
        return runInForeground(new ProcessBuilder(command).inheritIO(), memcached);
    }

    /** Runs the server until it exits or this JVM is stopped (Ctrl-C); either way the server and the private memcached stop. */
    private static int runInForeground(ProcessBuilder builder, MemcachedProcess memcached) throws IOException, InterruptedException {
        Process server;
        try {
            server = builder.start();
        } catch (IOException e) {
            if (memcached != null) {
                memcached.close();
            }
            throw e;
        }
        Thread cleanup = new Thread(() -> stop(server, memcached), "serve-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        int status = server.waitFor();
        stop(server, memcached);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running already: it does the same.
        }
        return status;
    }

    private static void stop(Process server, MemcachedProcess memcached) {
        synchronized (server) { // the shutdown hook and the waiting thread may both get here
            stopOnce(server, memcached);
        }
    }

    private static void stopOnce(Process server, MemcachedProcess memcached) {
        try {
            if (server.isAlive()) {
                server.destroy(); // SIGTERM: the server closes its connector and exits
                if (!server.waitFor(10, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            server.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            if (memcached != null) {
                memcached.close();
            }
        }
    }

    private boolean memcachedConfigured() {
        String servers = System.getenv("MEMCACHED_SERVERS");
        return servers != null && !servers.isBlank()
                || serverArgs.stream().anyMatch(a -> a.equals(MEMCACHED_OPTION) || a.startsWith(MEMCACHED_OPTION + "="));
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static void printList(VariantManifest manifest, PrintStream out) {
        out.printf("%-24s %-8s %-4s %s%n", "VARIANT", "MODE", "JDK", "DESCRIPTION");
        for (Variant v : manifest.variants()) {
            out.printf("%-24s %-8s %-4s %s%n", v.name(), v.mode(), v.minJdk() + "+", v.description());
        }
    }
}
