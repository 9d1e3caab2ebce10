package org.testbed.runfolder.environment;

/**
 * environment.json's {@code tools}: the versions of the programs a run starts besides the variants.
 *
 * @param wrk wrk's version line, or {@code not installed}
 * @param memcached {@code memcached -V}
 * @param taskset whether taskset is there (without it nothing is pinned)
 * @param jmeter with {@code --driver jmeter}: JMeter's version and where it ran ({@code Apache JMeter 5.6.3 from
 *               HOME, here} or {@code ... on 2 load hosts}); {@code not used} otherwise
 * @param toxiproxy with a store latency ({@code --store-latency}): the Toxiproxy release between the servers
 *                  and memcached ({@code toxiproxy 2.5.0}); {@code not used} otherwise
 */
@EnvironmentSection
public record Tools(String wrk, String memcached, boolean taskset, String jmeter, String toxiproxy) {
    /** The tools of a run that did not use JMeter nor Toxiproxy. */
    public Tools(String wrk, String memcached, boolean taskset) {
        this(wrk, memcached, taskset, NOT_USED, NOT_USED);
    }

    public static final String NOT_USED = "not used";

    public Tools {
        jmeter = jmeter == null ? NOT_USED : jmeter;
        toxiproxy = toxiproxy == null ? NOT_USED : toxiproxy; // absent from the runs made before it existed
    }
}
