package org.testbed.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class HttpDateTest {

    @Test
    void nowIsAnImfFixdateOfThisSecond() {
        String date = HttpDate.now();
        // IMF-fixdate (RFC 9110): a two-digit day, where RFC_1123_DATE_TIME writes one digit before the 10th.
        assertThat(date).matches("(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
        Instant parsed = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        assertThat(Duration.between(parsed, Instant.now()).abs()).isLessThan(Duration.ofSeconds(3));
    }
}
