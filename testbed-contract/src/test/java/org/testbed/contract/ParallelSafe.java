package org.testbed.contract;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A suite that may run beside another one: it starts only its own processes (a Memcached and a
 * variant on free loopback ports), holds no shared resource (no fixed port, no container image,
 * no emulator, no raised descriptor limit) and asserts no figure a busy neighbour could move
 * beyond its margins. Failsafe runs these suites in two JVMs at once, since most of their time is
 * spent waiting for Memcached time-outs and restarts, and the others after them, one at a time
 * (testbed-contract/pom.xml).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(ParallelSafe.TAG)
@interface ParallelSafe {
    String TAG = "parallel-safe";
}
