package dev.jobweaver.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PoisonCorpusTest {

    private static final String JOB = "0193a1c2-7f00-7000-8000-000000000001";
    private static final String GOOD = """
            {"jobId":"%s","jobType":"SIMULATION","payload":{"steps":[{"action":"SLEEP","durationMs":5},
             {"action":"LOG","message":"hi"}]},"maxRetries":2,"traceId":"0af7651916cd43dd8448eb211c80319c",
             "createdAt":"2026-11-25T12:00:00Z"}""".formatted(JOB);
    private static final ObjectMapper MAPPER = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final List<Poison> corpus = PoisonCorpus.of(GOOD, JOB,
            Set.of("jobId", "jobType", "payload.steps[0].action", "payload.steps[0].durationMs"));

    @Test
    void coversEveryFieldAndTheWholeRecordKinds() {
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(15);
        assertThat(corpus).extracting(Poison::name).contains("not JSON", "1 MiB value", "null key",
                "jobId: missing", "jobId: invalid UUID", "jobType: unknown enum value", "maxRetries: negative",
                "maxRetries: huge", "traceId: over-long string", "createdAt: invalid timestamp",
                "createdAt: timestamp out of range", "payload.steps[1].message: over-long string",
                "payload.steps[0].durationMs: missing", "payload.steps[0].action: unknown enum value");
        assertThat(corpus).filteredOn(p -> p.name().equals("1 MiB value")).singleElement()
                .extracting(p -> p.value().length).isEqualTo(PoisonCorpus.HUGE);
    }

    @Test
    void theGoodEventPassesAndEveryPoisonIsRefused() {
        assertThat(read(GOOD.getBytes(StandardCharsets.UTF_8), JOB)).isNull();
        for (Poison poison : corpus) {
            assertThat(read(poison.value(), poison.key())).as(poison.name()).isNotNull();
        }
    }

    /** Why the record is refused, or null: what a consumer of job-created checks. */
    private static String read(byte[] value, String key) {
        EventReader.Read<JobCreatedEvent> read = EventReader.read(MAPPER, value, JobCreatedEvent.class,
                EventRules::problem);
        if (read instanceof EventReader.Read.Bad<JobCreatedEvent> bad) {
            return bad.detail();
        }
        JobCreatedEvent event = ((EventReader.Read.Ok<JobCreatedEvent>) read).event();
        return EventRules.keyProblem(key, event.jobId());
    }
}
