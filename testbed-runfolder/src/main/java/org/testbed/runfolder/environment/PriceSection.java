package org.testbed.runfolder.environment;

import java.util.Optional;

/**
 * environment.json's {@code price} of a run with {@code --price-per-hour} or {@code --prices}: what
 * the server's machine costs and the share of it the server had, from which steps.csv's
 * {@code cost_per_million} is computed. Currency-neutral: the price is per hour in whatever unit it
 * was given in.
 *
 * @param pricePerHour the price of the server's machine per hour, as given
 * @param source where the price came from: {@code --price-per-hour}, or the prices file and the line that matched
 * @param serverShare the server's share of that machine, 0..1
 * @param share why the share is what it is, in words (pinned to 1 of 2 CPUs, not pinned, a machine of its own)
 * @param formula how a step's cost is computed from these and its throughput
 * @param pricedAfterTheRun when the price was added to the run folder after the run ({@code ./testbed report}), what did it
 */
@EnvironmentSection
public record PriceSection(double pricePerHour, String source, double serverShare, String share, String formula,
                           Optional<String> pricedAfterTheRun) {
}
