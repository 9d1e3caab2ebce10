package org.testbed.runner.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RobustnessTableTest {

    @Test
    void variantsGoDownAndFiguresAcrossInFirstSeenOrderWithADashWhereMissing() {
        List<String> table = RobustnessTable.render(List.of(
                "vertx\tfaults\tok",
                "spring-tomcat\tfaults\t3/3",
                "spring-tomcat\tlost-updates\t0",
                "vertx\thostile\t12/12",
                ""));

        assertThat(table).containsExactly(
                "  variant        faults  lost-updates  hostile",
                "  vertx              ok             -    12/12",
                "  spring-tomcat     3/3             0        -");
    }

    @Test
    void aValueWiderThanItsHeadingWidensTheColumnAndTheLastValueOfAFigureWins() {
        List<String> table = RobustnessTable.render(List.of(
                "a\tx\t1",
                "a\tx\t12345",
                "a-long-variant-name\ty\t2"));

        assertThat(table).containsExactly(
                "  variant                  x  y",
                "  a                    12345  -",
                "  a-long-variant-name      -  2");
    }

    @Test
    void noLinesGiveTheHeadingOnly() {
        assertThat(RobustnessTable.render(List.of())).containsExactly("  variant");
    }
}
