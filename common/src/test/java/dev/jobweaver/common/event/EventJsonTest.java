package dev.jobweaver.common.event;

import static dev.jobweaver.common.JsonFixture.MAPPER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class EventJsonTest {

    private static final UUID JOB = UUID.fromString("0b8f3f5e-2c1d-4c7a-9a51-5d0f0a3e9e11");
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final Instant T0 = Instant.parse("2026-11-21T10:15:30.123456Z");
    private static final HttpCallPayload HTTP = new HttpCallPayload("POST", "https://example.org/hook",
            Map.of("X-Token", "t"), "{}", List.of(200), 5_000L);
    private static final JobControl CONTROL = new JobControl(Priority.LOW, T0.plusSeconds(60), 9_000L,
            List.of(100L, 1_000L), "team-a", Map.of("env", "prod"));
    private static final JobPayload PAYLOAD =
            new JobPayload(List.of(new Step.Log("hi"), new Step.Sleep(5L), new Step.Fail("no")));

    static Stream<Record> everyEvent() {
        UUID run = EventIds.runEventId(JOB, 2);
        return Stream.of(
                new JobCreatedEvent(JOB, JobType.SIMULATION, PAYLOAD, 3, TRACE, T0),
                new RunJobEvent(run, JOB, 2, JobType.SIMULATION, PAYLOAD, TRACE, T0, T0.plusSeconds(1),
                        T0.plusSeconds(90)),
                new JobCompletedEvent(run, JOB, 2, TRACE, T0.plusSeconds(1), T0.plusSeconds(2), "worker-1", null),
                new JobFailedEvent(run, JOB, 2, TRACE, "boom", T0.plusSeconds(1), T0.plusSeconds(2), "worker-1"),
                new DeadLetterEvent(JOB, "boom", 3, T0.plusSeconds(3), TRACE),
                new JobStatusChangedEvent(JOB, JobStatus.PENDING, 4, 2, 1, 3, T0.plusSeconds(10), "boom", TRACE,
                        T0.plusSeconds(2), T0.plusSeconds(1), null),
                new JobCreatedEvent(JOB, JobType.HTTP, Payloads.tree(HTTP), 3, TRACE, T0, CONTROL),
                new RunJobEvent(run, JOB, 2, JobType.HTTP, Payloads.tree(HTTP), TRACE, T0, T0.plusSeconds(1),
                        T0.plusSeconds(90), CONTROL),
                new JobCompletedEvent(run, JOB, 2, TRACE, T0.plusSeconds(1), T0.plusSeconds(2), "worker-1",
                        Payloads.tree(Map.of("status", 200, "body", "ok"))),
                new JobStatusChangedEvent(JOB, JobStatus.COMPLETED, 5, 2, 1, 3, null, null, TRACE,
                        T0.plusSeconds(2), T0.plusSeconds(1), T0.plusSeconds(2), Payloads.tree(Map.of("n", 1))),
                new DeadLetterEvent(JOB, "boom", 3, T0.plusSeconds(3), TRACE, "team-a", Map.of("env", "prod")),
                new JobCommandEvent(JOB, JobCommand.CANCEL, TRACE, T0.plusSeconds(4)),
                new JobCommandEvent(JOB, JobCommand.DELETE, null, T0.plusSeconds(5)),
                JobCommandEvent.requeue(JOB, TRACE, T0.plusSeconds(6), Payloads.tree(Map.of("n", 1)), 2,
                        T0.plusSeconds(3)),
                JobCommandEvent.purge(List.of(JOB, UUID.fromString("6f1c1c1e-7d2a-4f3b-8e4d-2a9b0c1d2e3f")),
                        T0.plusSeconds(7)));
    }

    @org.junit.jupiter.api.Test
    void anEventWrittenBeforeJobControlReadsWithoutControl() throws Exception {
        String old = """
                {"jobId":"0b8f3f5e-2c1d-4c7a-9a51-5d0f0a3e9e11","jobType":"SIMULATION",
                 "payload":{"steps":[{"action":"LOG","message":"hi"}]},"maxRetries":2,
                 "traceId":"4bf92f3577b34da6a3ce929d0e0e4736","createdAt":"2026-11-25T12:00:00Z"}""";

        JobCreatedEvent event = MAPPER.readValue(old, JobCreatedEvent.class);

        assertThat(event.control()).isNull();
        assertThat(JobControl.orDefaults(event.control()).priorityOrDefault()).isEqualTo(Priority.NORMAL);
        assertThat(Payloads.simulation(event.payload()).steps()).containsExactly(new Step.Log("hi"));
        assertThat(EventRules.problem(event)).isNull();
    }

    @org.junit.jupiter.api.Test
    void anEventWithoutControlIsWrittenWithoutIt() throws Exception {
        assertThat(MAPPER.writeValueAsString(new JobCreatedEvent(JOB, JobType.SIMULATION, PAYLOAD, 3, TRACE, T0)))
                .doesNotContain("control");
    }

    @org.junit.jupiter.api.Test
    void aCommandOfOneJobIsWrittenWithoutJobIdsAndReadAsAboutItsJobAlone() throws Exception {
        String json = MAPPER.writeValueAsString(new JobCommandEvent(JOB, JobCommand.PURGE, null, T0));
        assertThat(json).doesNotContain("jobIds");
        assertThat(MAPPER.readValue(json, JobCommandEvent.class).jobs()).containsExactly(JOB);
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
