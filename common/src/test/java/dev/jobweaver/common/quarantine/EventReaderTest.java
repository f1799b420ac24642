package dev.jobweaver.common.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.JsonFixture;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.quarantine.EventReader.Read;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventReaderTest {

    private static Read<JobCreatedEvent> read(String json) {
        return EventReader.read(JsonFixture.MAPPER, json == null ? null : json.getBytes(StandardCharsets.UTF_8),
                JobCreatedEvent.class, EventRules::problem);
    }

    private static final String GOOD = """
            {"jobId":"0193a1c2-7f00-7000-8000-000000000001","jobType":"SIMULATION",
             "payload":{"steps":[{"action":"LOG","message":"hi"}]},"maxRetries":2,
             "traceId":"0af7651916cd43dd8448eb211c80319c","createdAt":"2026-11-25T12:00:00Z"}""";

    @Test
    void aGoodValueIsItsEvent() {
        assertThat(read(GOOD)).isInstanceOfSatisfying(Read.Ok.class,
                ok -> assertThat(((JobCreatedEvent) ok.event()).maxRetries()).isEqualTo(2));
    }

    @Test
    void aTypeOfATeamsOwnIsAnEventLikeAnyOther() {
        assertThat(read(GOOD.replace("\"SIMULATION\"", "\"ROCKET\""))).isInstanceOfSatisfying(Read.Ok.class,
                ok -> assertThat(((JobCreatedEvent) ok.event()).jobType().name()).isEqualTo("ROCKET"));
    }

    @Test
    void unreadableValuesAreNamedSo() {
        for (String bad : new String[] {null, "", "not json", "null", "[1,2]", "{\"jobId\":42x}",
                GOOD.replace("\"SIMULATION\"", "\"no such/type\""),
                GOOD.replace("\"maxRetries\":2", "\"maxRetries\":\"two\""),
                GOOD.replace("\"maxRetries\":2", "\"maxRetries\":99999999999999999999"),
                GOOD.replace("0193a1c2-7f00-7000-8000-000000000001", "not-a-uuid"),
                GOOD.replace("2026-11-25T12:00:00Z", "yesterday")}) {
            assertThat(read(bad)).as(String.valueOf(bad)).isInstanceOfSatisfying(Read.Bad.class,
                    b -> assertThat(b.reason()).isEqualTo(QuarantineReason.UNREADABLE));
        }
    }

    @Test
    void aPayloadThatDoesNotFitItsTypeIsInvalidAndNamed() {
        Read<JobCreatedEvent> read = read(GOOD.replace("\"LOG\"", "\"DANCE\""));
        assertThat(read).isInstanceOfSatisfying(Read.Bad.class, b -> {
            assertThat(b.reason()).isEqualTo(QuarantineReason.INVALID);
            assertThat(b.detail()).startsWith("payload is not a SIMULATION payload").contains("DANCE");
        });
    }

    @Test
    void anInvalidEventNamesTheRule() {
        Read<JobCreatedEvent> read = read(GOOD.replace("0af7651916cd43dd8448eb211c80319c", "x".repeat(100)));
        assertThat(read).isInstanceOfSatisfying(Read.Bad.class, b -> {
            assertThat(b.reason()).isEqualTo(QuarantineReason.INVALID);
            assertThat(b.detail()).isEqualTo("traceId must be 32 lower-case hex characters, got 100 characters");
        });
    }

    @Test
    void aRuleThatThrowsMakesTheEventInvalidNotTheConsumerFail() {
        Read<JobCreatedEvent> read = EventReader.read(JsonFixture.MAPPER, GOOD.getBytes(StandardCharsets.UTF_8),
                JobCreatedEvent.class, e -> {
                    throw new IllegalStateException("rule bug");
                });
        assertThat(read).isInstanceOfSatisfying(Read.Bad.class,
                b -> assertThat(b.detail()).contains("IllegalStateException: rule bug"));
    }
}
