package dev.jobweaver.common.event;

import static dev.jobweaver.common.JsonFixture.MAPPER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class EventJsonTest {

    private static final UUID JOB = UUID.fromString("0b8f3f5e-2c1d-4c7a-9a51-5d0f0a3e9e11");
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final Instant T0 = Instant.parse("2026-11-21T10:15:30.123456Z");
    private static final JobPayload PAYLOAD =
            new JobPayload(List.of(new Step.Log("hi"), new Step.Sleep(5L), new Step.Fail("no")));

    static Stream<Record> everyEvent() {
        UUID run = EventIds.runEventId(JOB, 2);
        return Stream.of(
                new JobCreatedEvent(JOB, JobType.SIMULATION, PAYLOAD, 3, TRACE, T0),
                new RunJobEvent(run, JOB, 2, JobType.SIMULATION, PAYLOAD, TRACE, T0, T0.plusSeconds(1),
                        T0.plusSeconds(90)),
                new JobCompletedEvent(run, JOB, 2, TRACE, T0.plusSeconds(1), T0.plusSeconds(2), "worker-1"),
                new JobFailedEvent(run, JOB, 2, TRACE, "boom", T0.plusSeconds(1), T0.plusSeconds(2), "worker-1"),
                new DeadLetterEvent(JOB, "boom", 3, T0.plusSeconds(3), TRACE),
                new JobStatusChangedEvent(JOB, JobStatus.PENDING, 4, 2, 1, 3, T0.plusSeconds(10), "boom", TRACE,
                        T0.plusSeconds(2), T0.plusSeconds(1), null));
    }

    @ParameterizedTest
    @MethodSource("everyEvent")
    void roundTripsThroughJson(Record event) throws Exception {
        String json = MAPPER.writeValueAsString(event);
        assertThat(MAPPER.readValue(json, event.getClass())).isEqualTo(event);
    }

    @ParameterizedTest
    @MethodSource("everyEvent")
    void writesInstantsAsIsoStrings(Record event) throws Exception {
        assertThat(MAPPER.writeValueAsString(event)).contains("\"2026-11-21T10:15:3");
    }
}
