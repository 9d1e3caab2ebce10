package org.testbed.runner;

import java.nio.file.Path;
import java.util.Optional;
import org.testbed.runfolder.price.PriceList;
import picocli.CommandLine.Option;

/**
 * The price of the server's machine, for {@code run} (each step's cost per million requests) and
 * {@code report} (a run folder priced after the run): one price per hour, or a file of prices by
 * host or machine label. Currency-neutral: the number is per hour in whatever unit it is given.
 */
final class PriceOptions {
    @Option(names = "--price-per-hour", paramLabel = "PRICE",
            description = "What the server's machine costs per hour (any currency, e.g. 0.0416): every step gets its"
                    + " cost per million requests = PRICE x the server's share of the machine / (req/s x 3600) x 1e6")
    String pricePerHour;

    @Option(names = "--prices", paramLabel = "FILE",
            description = "Prices per machine, one 'KEY = PRICE' a line, KEY a host name, a CPU model, an arch or *"
                    + " (the most specific that names the server's machine wins); for runs whose machines differ")
    Path prices;

    /** The prices the options name; empty without either. One line naming what is allowed when they are wrong. */
    Optional<PriceList> list() {
        if (pricePerHour != null && prices != null) {
            throw new IllegalArgumentException("--price-per-hour and --prices exclude each other: one price for the"
                    + " server's machine, or a file of prices by host or label");
        }
        if (pricePerHour != null) {
            return Optional.of(PriceList.single(pricePerHour));
        }
        return prices == null ? Optional.empty() : Optional.of(PriceList.read(prices));
    }

    /** How the price was given, for environment.json: {@code --price-per-hour 0.0416}, {@code --prices FILE}. */
    String given() {
        return pricePerHour != null ? "--price-per-hour " + pricePerHour.strip() : "--prices " + prices;
    }
}
