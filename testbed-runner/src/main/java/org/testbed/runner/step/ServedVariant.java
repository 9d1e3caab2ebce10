package org.testbed.runner.step;

import org.testbed.driver.Target;
import org.testbed.runner.env.JdkInfo;
import org.testbed.runner.host.RunningServer;
import org.testbed.variant.Variant;

/**
 * One started variant as each of its steps sees it.
 *
 * @param jdk the JDK it runs on, as its machine sees it
 * @param target where the load goes
 */
record ServedVariant(Variant variant, RunningServer server, JdkInfo jdk, Target target) {
}
