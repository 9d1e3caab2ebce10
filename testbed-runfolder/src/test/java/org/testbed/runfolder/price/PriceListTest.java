package org.testbed.runfolder.price;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prices file: what it accepts, which line prices a machine, and one line for each thing it refuses. */
class PriceListTest {
    static final String FILE = """
            # price per hour of each machine type
            vm-x86.example.org = 0.0416   # the x86 VM, by host name
            AMD EPYC 7B13      = 0.0400
            aarch64            = 0.0336
            *                  = 0.05
            """;
    static final ServerShare HALF = ServerShare.of("0", 2);

    static PriceList.Machine machine(String host, String cpuModel, String arch) {
        return new PriceList.Machine(host, Optional.empty(), cpuModel, arch);
    }

    @Test
    void theMostSpecificKeyThatNamesTheMachineWinsWhateverTheOrder() {
        PriceList prices = PriceList.parse(FILE, "prices.conf");
        assertThat(prices.entries()).extracting(PriceList.Entry::key)
                .containsExactly("vm-x86.example.org", "AMD EPYC 7B13", "aarch64", "*");
        // The host name before the CPU model and the arch, ignoring case.
        Pricing x86 = prices.priceFor(machine("VM-X86.example.org", "AMD EPYC 7B13", "x86_64"), HALF);
        assertThat(x86.pricePerHour()).isEqualTo(0.0416);
        assertThat(x86.source()).isEqualTo("--prices prices.conf line 2: 'vm-x86.example.org' (the host name)");
        assertThat(x86.share()).isEqualTo(HALF);
        // The CPU model before the arch; the arch before *.
        assertThat(prices.priceFor(machine("other", "AMD EPYC 7B13", "x86_64"), HALF).pricePerHour()).isEqualTo(0.04);
        assertThat(prices.priceFor(machine("arm-vm", "Neoverse-N1", "aarch64"), HALF).pricePerHour()).isEqualTo(0.0336);
        assertThat(prices.priceFor(machine("other", "Intel Xeon", "x86_64"), HALF).pricePerHour()).isEqualTo(0.05);
        // With --server-host, the host ssh reached (an alias) names the machine too, after its own host name.
        PriceList alias = PriceList.parse("vm-arm = 0.0336\n* = 1\n", "p");
        assertThat(alias.priceFor(new PriceList.Machine("ip-10-0-0-2", Optional.of("vm-arm"), "Neoverse-N1", "aarch64"),
                ServerShare.ownMachine()).pricePerHour()).isEqualTo(0.0336);
    }

    @Test
    void onePriceForAnyMachine() {
        PriceList one = PriceList.single("0.0416");
        Pricing p = one.priceFor(machine("h", "c", "x86_64"), HALF);
        assertThat(p.pricePerHour()).isEqualTo(0.0416);
        assertThat(p.source()).isEqualTo("--price-per-hour");
        assertThat(PriceList.single("3").entries()).singleElement().extracting(PriceList.Entry::pricePerHour).isEqualTo(3.0);
        assertThat(PriceList.single("1e-3").entries().get(0).pricePerHour()).isEqualTo(0.001);
    }

    @Test
    void aBadPriceIsOneLineSayingWhatIsAllowed() {
        for (String bad : new String[] {"$0.0416", "0,0416", "-1", "0", "abc", "", "0.04 USD"}) {
            assertThatThrownBy(() -> PriceList.single(bad)).as(bad)
                    .hasMessage("--price-per-hour takes a price per hour, a number > 0 with a dot for decimals and no currency"
                            + " sign (e.g. 0.0416), not '" + bad + "'");
        }
    }

    @Test
    void aBadFileIsOneLineNamingTheLineAndWhatIsAllowed() {
        assertThatThrownBy(() -> PriceList.parse("vm-arm 0.0336\n", "prices.conf"))
                .hasMessageStartingWith("prices.conf line 1: 'vm-arm 0.0336' has no '='; each line is KEY = PRICE")
                .hasMessageContaining("e.g. 'vm-arm = 0.0336'").hasNoCause();
        assertThatThrownBy(() -> PriceList.parse("# ok\n = 0.03\n", "prices.conf"))
                .hasMessageStartingWith("prices.conf line 2: '= 0.03' names no host or label before '='");
        assertThatThrownBy(() -> PriceList.parse("vm-arm = $0.03\n", "prices.conf"))
                .hasMessage("prices.conf line 1: the price of 'vm-arm' must be a price per hour, a number > 0 with a dot for"
                        + " decimals and no currency sign (e.g. 0.0416), not '$0.03'");
        assertThatThrownBy(() -> PriceList.parse("vm-arm = 0.03\n\nVM-ARM = 0.04\n", "prices.conf"))
                .hasMessage("prices.conf line 3: 'VM-ARM' is priced twice (also line 1); each host or label once");
        assertThatThrownBy(() -> PriceList.parse("# nothing\n\n", "prices.conf"))
                .hasMessageStartingWith("prices.conf: no prices in it; each line is KEY = PRICE");
        for (String message : new String[] {messageOf("a = 1\nb\n"), messageOf("x = -2")}) {
            assertThat(message).doesNotContain("\n");
        }
    }

    @Test
    void aMachineTheFileDoesNotNameIsOneLineSayingWhatToAdd() {
        PriceList prices = PriceList.parse("vm-x86 = 0.0416\naarch64 = 0.0336\n", "prices.conf");
        assertThatThrownBy(() -> prices.priceFor(machine("build-7", "AMD EPYC", "x86_64"), HALF))
                .hasMessage("prices.conf has no price for the server's machine (host build-7, CPU model AMD EPYC, arch x86_64):"
                        + " add a line 'build-7 = PRICE' or '* = PRICE'");
    }

    @Test
    void aMissingFileIsOneLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("prices.conf");
        assertThatThrownBy(() -> PriceList.read(file)).hasMessageStartingWith("--prices " + file + ": cannot read it");
        Files.writeString(file, FILE);
        assertThat(PriceList.read(file).entries()).hasSize(4);
    }

    private static String messageOf(String text) {
        try {
            PriceList.parse(text, "p");
            throw new AssertionError("accepted " + text);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
