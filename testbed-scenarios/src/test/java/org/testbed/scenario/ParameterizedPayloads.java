package org.testbed.scenario;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The payload sizes the studies use: 100 B (default), 1 KiB and 10 KiB. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0} bytes")
@ValueSource(ints = {Payloads.DEFAULT_SIZE, Payloads.ONE_KIB, Payloads.TEN_KIB})
@interface ParameterizedPayloads {
}
