package org.testbed.runfolder.environment;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How every record of environment.json is written and read: its keys in snake_case
 * ({@code cpuModel} is {@code cpu_model}), an empty {@code Optional} left out (a section or a fact
 * a run did not have is absent, not null), and keys this version does not know ignored when read
 * (a run folder written by an older or a newer runner, or by the Gatling simulations, still reads).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@JacksonAnnotationsInside
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_ABSENT)
@JsonIgnoreProperties(ignoreUnknown = true)
@interface EnvironmentSection {
}
