package org.testbed.runfolder.price;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.Optional;
import org.testbed.runfolder.EnvironmentFile;
import org.testbed.runfolder.environment.PriceSection;

/**
 * What a request costs on a run's server machine: its price per hour (currency-neutral, as given)
 * and the server's share of it ({@link ServerShare}). A step's cost of a million requests at its
 * measured throughput is
 *
 * <pre>cost_per_million = price_per_hour × server_share / (rps × 3600) × 1 000 000</pre>
 *
 * the money one hour of the server's part of the machine costs, spread over the requests it
 * answered in that hour. It is inverse to throughput: twice the req/s on the same machine is half
 * the cost per request; the same req/s on a machine half the price is half the cost too.
 *
 * @param pricePerHour the machine's price per hour, &gt; 0
 * @param share the server's share of the machine
 * @param source where the price came from ({@code --price-per-hour}, or a prices file and its line)
 * @param pricedAfterTheRun set when the price was added to a run folder after the run, saying how
 */
public record Pricing(double pricePerHour, ServerShare share, String source, Optional<String> pricedAfterTheRun) {
    /** Seconds in the hour a price is given for. */
    public static final double SECONDS_PER_HOUR = 3600;
    /** The requests a cost is given for. */
    public static final double REQUESTS = 1_000_000;
    /** The formula, as environment.json and the documents write it. */
    public static final String FORMULA = "cost_per_million = price_per_hour × server_share / (rps × 3600) × 1000000";
    /** How many significant digits a cost is written with: costs span decades, fixed decimals would lose the small ones. */
    public static final int DIGITS = 6;

    public Pricing {
        if (!(pricePerHour > 0) || Double.isInfinite(pricePerHour)) {
            throw new IllegalArgumentException("a price per hour is a number > 0, not " + pricePerHour);
        }
        pricedAfterTheRun = pricedAfterTheRun == null ? Optional.empty() : pricedAfterTheRun;
    }

    /** What an hour of the server's part of the machine costs: price × share. */
    public double hourly() {
        return pricePerHour * share.fraction();
    }

    /** The cost of a million requests at {@code rps}; NaN when the throughput is not a positive figure. */
    public double costPerMillion(double rps) {
        return costPerMillion(pricePerHour, share.fraction(), rps);
    }

    /**
     * {@code price × share / (rps × 3600) × 1e6}; NaN when {@code rps} is not a positive figure (a
     * step that answered nothing has no cost per request) or the price or share is not known.
     */
    public static double costPerMillion(double pricePerHour, double serverShare, double rps) {
        if (!(rps > 0) || Double.isInfinite(rps) || !(pricePerHour > 0) || !(serverShare > 0)) {
            return Double.NaN;
        }
        return pricePerHour * serverShare / (rps * SECONDS_PER_HOUR) * REQUESTS;
    }

    /** This price as environment.json records it. */
    public PriceSection section() {
        return new PriceSection(pricePerHour, source, share.fraction(), share.reason(), FORMULA, pricedAfterTheRun);
    }

    /** The same price, marked as added to the run folder after the run by {@code how}. */
    public Pricing afterTheRun(String how) {
        return new Pricing(pricePerHour, share, source, Optional.of(how));
    }

    /** A price as environment.json recorded it. */
    public static Pricing of(PriceSection section) {
        return new Pricing(section.pricePerHour(), new ServerShare(section.serverShare(), section.share()), section.source(),
                section.pricedAfterTheRun());
    }

    /** The price of a run folder (its environment.json's {@code price}), or empty for a run without one. */
    public static Optional<Pricing> read(Path runDir) throws IOException {
        JsonNode price = EnvironmentFile.read(runDir.resolve(EnvironmentFile.NAME)).path("price");
        if (!price.isObject()) {
            return Optional.empty();
        }
        try {
            return Optional.of(of(EnvironmentFile.JSON.treeToValue(price, PriceSection.class)));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IOException(runDir.resolve(EnvironmentFile.NAME) + ": its price is not readable: " + e.getMessage(), e);
        }
    }

    /** For the console and the page: {@code 0.0416 per hour × server share 0.5 (the server was pinned to ...)}. */
    public String describe() {
        return text(pricePerHour) + " per hour × server share " + text(share.fraction()) + " (" + share.reason() + ")";
    }

    /** A price or share as given, with no rounding and no exponent: {@code 0.0416}, {@code 3}, {@code 0.00001}. */
    public static String text(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** A cost with {@link #DIGITS} significant digits and no exponent ({@code 0.000288889}); empty when not known. */
    public static String cost(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        return new BigDecimal(value).round(new MathContext(DIGITS)).stripTrailingZeros().toPlainString();
    }
}
