package org.testbed.contract;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A suite's variant, started as a real process with its own memcached ({@link RunningVariant}) and
 * handed to any {@code RunningVariant} parameter (constructor, test or lifecycle method).
 *
 * <ul>
 *   <li>On a {@code @ParameterizedClass} over {@link ContractVariants#arguments()}: the variant of
 *       each class invocation is started once before its tests and stopped after them.</li>
 *   <li>On a test method's parameter: a variant started for that test alone, with its own
 *       settings, and stopped when the test ends, whatever its outcome.</li>
 * </ul>
 *
 * Either way the start, the log file and the stop are written once, in {@link StartedVariantExtension}.
 */
@Target({ElementType.TYPE, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(StartedVariantExtension.class)
@interface StartedVariant {
    /** Server flags beyond the address and memcached every start gets, e.g. {@code --tls}. */
    String[] args() default {};

    /**
     * The label of the log file {@code target/variant-logs/VARIANT-LABEL.log}, so that suites
     * starting the same variant keep apart logs; empty: derived from {@link #args()}.
     */
    String log() default "";

    /** The JVM the variant runs on: the host's, or an emulated aarch64 one. */
    VariantJvm jvm() default VariantJvm.HOST;
}
