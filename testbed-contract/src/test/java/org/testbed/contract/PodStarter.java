package org.testbed.contract;

import java.time.Duration;

/**
 * One image under test in a pod of its own: Memcached (from the base image, which has it) and the
 * server share the pod's loopback, as a variant and its cache share a host, and only the server's
 * 8080 is published, on 127.0.0.1.
 */
final class PodStarter {
    private PodStarter() {
    }

    static String server(String pod) {
        return pod + "-server";
    }

    static void start(PodmanLab lab, String pod, int port, String image, String memcachedImage) {
        Duration limit = Duration.ofSeconds(60);
        lab.podmanOk(limit, "pod", "create", "--name", pod, "--publish", "127.0.0.1:" + port + ":8080");
        lab.podmanOk(limit, "run", "--detach", "--pod", pod, "--name", pod + "-memcached", memcachedImage,
                "memcached", "-u", "memcache", "-l", "127.0.0.1", "-p", "11211", "-m", "64");
        lab.podmanOk(limit, "run", "--detach", "--pod", pod, "--name", server(pod), "--env", "MEMCACHED_SERVERS=127.0.0.1:11211",
                "--env", "TESTBED_HOST=0.0.0.0", "--env", "TESTBED_PORT=8080", image);
    }

    /** Until GET /testbed/health is 200 through the published port; the server's log in the failure. */
    static void awaitHealth(PodmanLab lab, String pod, HttpProbe http, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        String last = "nothing answered";
        while (System.nanoTime() < deadline) {
            try {
                HttpProbe.Reply reply = http.get("/testbed/health");
                if (reply.status() == 200) {
                    return;
                }
                last = "status " + reply.status() + ": " + reply.text();
            } catch (RuntimeException notYet) {
                last = String.valueOf(notYet.getMessage());
            }
            Thread.sleep(500);
        }
        throw new AssertionError(pod + " not healthy through " + http.base() + " within " + limit.toSeconds() + " s (" + last
                + "); its log:\n" + log(lab, pod));
    }

    static String log(PodmanLab lab, String pod) {
        return lab.podman(Duration.ofSeconds(30), "logs", server(pod)).output();
    }

    /** The pod, its containers and the image: also after a failed check. */
    static void remove(PodmanLab lab, String pod, String image) {
        lab.podman(Duration.ofSeconds(60), "pod", "rm", "--force", "--time", "0", pod);
        lab.podman(Duration.ofSeconds(60), "rmi", "--force", image);
    }
}
