package dev.jobweaver.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A type's defaults compose by copy and hold the bounds of a job's own fields, naming the one they break. */
class HandlerDefaultsTest {

    @Test
    void eachWithSetsOneDefaultOnACopy() {
        HandlerDefaults none = HandlerDefaults.none();
        HandlerDefaults all = none.withTimeout(Duration.ofSeconds(30))
                .withRetryDelays(Duration.ofSeconds(1), Duration.ofSeconds(10)).withPriority(Priority.HIGH);

        assertThat(none.any()).isFalse();
        assertThat(none.timeout()).isNull();
        assertThat(all.any()).isTrue();
        assertThat(all.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(all.retryDelays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(10));
        assertThat(all.priority()).isEqualTo(Priority.HIGH);
        assertThat(none.withPriority(Priority.LOW).timeout()).as("the others stay unset").isNull();
    }

    @Test
    void defaultsOutsideAJobsBoundsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> HandlerDefaults.none().withTimeout(Duration.ZERO))
                .hasMessage("timeout must be between 1 ms and 24 h, got PT0S");
        assertThatThrownBy(() -> HandlerDefaults.none().withTimeout(Duration.ofHours(25)))
                .hasMessageStartingWith("timeout must be between 1 ms and 24 h");
        assertThatThrownBy(() -> HandlerDefaults.none().withRetryDelays())
                .hasMessage("retryDelays must hold 1 to 10 delays, got 0");
        assertThatThrownBy(() -> HandlerDefaults.none().withRetryDelays(Duration.ofSeconds(1), Duration.ofSeconds(-1)))
                .hasMessage("retryDelays[1] must be between 0 and 365 days, got PT-1S");
        assertThatThrownBy(() -> new HandlerDefaults(null, List.of(Duration.ofDays(366)), null))
                .hasMessageStartingWith("retryDelays[0] must be between 0 and 365 days");
    }

    @Test
    void aHandlerDeclaresNoneUnlessItSaysSo() {
        JobHandler<String> plain = new JobHandler<>() {
            @Override
            public String type() {
                return "text.echo";
            }

            @Override
            public Class<String> payloadType() {
                return String.class;
            }

            @Override
            public Duration expectedDuration(String payload) {
                return Duration.ofSeconds(1);
            }

            @Override
            public com.fasterxml.jackson.databind.JsonNode run(RunContext<String> run) {
                return null;
            }
        };

        assertThat(plain.defaults()).isSameAs(HandlerDefaults.none());
    }
}
