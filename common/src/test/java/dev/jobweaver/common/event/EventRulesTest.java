package dev.jobweaver.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventRulesTest {

    private static final UUID JOB = UUID.randomUUID();
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    private static final JobPayload PAYLOAD = new JobPayload(List.of(new Step.Log("hi")));

    private static JobCreatedEvent created(String traceId, int maxRetries, JobPayload payload, Instant createdAt) {
        return new JobCreatedEvent(JOB, JobType.SIMULATION, payload, maxRetries, traceId, createdAt);
    }

    @Test
    void aGoodEventOfEachTopicPasses() {
        assertThat(EventRules.problem(created(TRACE, 3, PAYLOAD, NOW))).isNull();
        assertThat(EventRules.problem(new RunJobEvent(UUID.randomUUID(), JOB, 1, JobType.SIMULATION, PAYLOAD, TRACE,
                NOW, NOW, NOW))).isNull();
        assertThat(EventRules.problem(new JobCompletedEvent(UUID.randomUUID(), JOB, 1, TRACE, NOW, NOW, "w-1", null)))
                .isNull();
        assertThat(EventRules.problem(new JobFailedEvent(UUID.randomUUID(), JOB, 2, TRACE, "boom", NOW, NOW, "w-1")))
                .isNull();
        assertThat(EventRules.problem(new JobStatusChangedEvent(JOB, JobStatus.RUNNING, 2, 1, 0, 3, null, null,
                TRACE, NOW, NOW, null))).isNull();
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.CANCEL, TRACE, NOW))).isNull();
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.DELETE, null, NOW))).isNull();
    }

    @Test
    void aJobOfAScheduleOrOfAWorkflowNodeCarriesItsOrigin() {
        JobCreatedEvent base = created(TRACE, 0, PAYLOAD, NOW);
        UUID run = UUID.randomUUID();

        assertThat(EventRules.problem(withOrigin(base, new JobOrigin(UUID.randomUUID(), NOW)))).isNull();
        assertThat(EventRules.problem(withOrigin(base, JobOrigin.node(UUID.randomUUID(), run, "extract", 5))))
                .isNull();
        assertThat(EventRules.problem(withOrigin(base, JobOrigin.node(UUID.randomUUID(), run, "no spaces", null))))
                .contains("origin.nodeId");
        assertThat(EventRules.problem(withOrigin(base, JobOrigin.node(null, run, "a", null))))
                .contains("origin.workflowId");
        assertThat(EventRules.problem(withOrigin(base, JobOrigin.node(UUID.randomUUID(), run, "a", 0))))
                .contains("origin.workflowMaxConcurrency");
        assertThat(EventRules.problem(withOrigin(base, new JobOrigin(UUID.randomUUID(), NOW, UUID.randomUUID(), run,
                "a", null)))).contains("one origin");
        assertThat(EventRules.problem(withOrigin(base, new JobOrigin(null, null, null, null, null, null))))
                .contains("origin.scheduleId");
    }

    private static JobCreatedEvent withOrigin(JobCreatedEvent e, JobOrigin origin) {
        return new JobCreatedEvent(e.jobId(), e.jobType(), e.payload(), e.maxRetries(), e.traceId(), e.createdAt(),
                e.control(), origin);
    }

    @Test
    void aCommandNamesWhatItLacksOrCarriesWrongly() {
        assertThat(EventRules.problem(new JobCommandEvent(null, JobCommand.CANCEL, TRACE, NOW)))
                .isEqualTo("jobId is required");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, null, TRACE, NOW))).isEqualTo("command is required");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.CANCEL, TRACE, null)))
                .isEqualTo("requestedAt is required");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.CANCEL, "xyz", NOW)))
                .startsWith("traceId");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.CANCEL, TRACE,
                Instant.parse("1970-01-01T00:00:00Z")))).startsWith("requestedAt must be between");
    }

    @Test
    void aRequeueMayCarryAPayloadAndRetryCountAndNoOtherCommandMay() {
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        payload.putArray("steps").addObject().put("action", "LOG").put("message", "fixed");
        assertThat(EventRules.problem(JobCommandEvent.requeue(JOB, TRACE, NOW, payload, 3, NOW))).isNull();
        assertThat(EventRules.problem(JobCommandEvent.requeue(JOB, TRACE, NOW, null, null, null))).isNull();
        assertThat(EventRules.problem(JobCommandEvent.requeue(JOB, TRACE, NOW, null, 11, NOW)))
                .isEqualTo("maxRetryCount must be between 0 and 10, got 11");
        assertThat(EventRules.problem(JobCommandEvent.requeue(JOB, TRACE, NOW, null, -1, NOW)))
                .isEqualTo("maxRetryCount must be between 0 and 10, got -1");
        assertThat(EventRules.problem(JobCommandEvent.requeue(JOB, TRACE, NOW,
                JsonNodeFactory.instance.arrayNode(), null, NOW))).isEqualTo("payload must be a JSON object, got ARRAY");
        assertThat(EventRules.problem(JobCommandEvent.requeue(JOB, TRACE, NOW, null, null,
                Instant.parse("1970-01-01T00:00:00Z")))).startsWith("failedAt must be between");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.CANCEL, TRACE, NOW, payload, null, null)))
                .isEqualTo("payload, maxRetryCount and failedAt belong to a REQUEUE only, got them with CANCEL");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.DELETE, TRACE, NOW, null, 2, null)))
                .isEqualTo("payload, maxRetryCount and failedAt belong to a REQUEUE only, got them with DELETE");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.CANCEL, TRACE, NOW, null, null, NOW)))
                .isEqualTo("payload, maxRetryCount and failedAt belong to a REQUEUE only, got them with CANCEL");
    }

    @Test
    void aPurgeMayNameManyJobsAndNoOtherCommandMay() {
        UUID other = UUID.randomUUID();
        assertThat(EventRules.problem(JobCommandEvent.purge(List.of(JOB, other), NOW))).isNull();
        assertThat(EventRules.problem(JobCommandEvent.purge(List.of(JOB), NOW))).isNull();
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.PURGE, null, NOW))).isNull();
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.DELETE, null, NOW, null, null, null,
                List.of(JOB)))).isEqualTo("jobIds belongs to a PURGE only, got it with DELETE");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.PURGE, null, NOW, null, null, null,
                List.of()))).isEqualTo("jobIds must name at least one job, or be absent");
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.PURGE, null, NOW, null, null, null,
                List.of(other)))).isEqualTo("jobIds must contain the command's jobId " + JOB);
        List<UUID> withNull = new ArrayList<>(List.of(JOB));
        withNull.add(null);
        assertThat(EventRules.problem(new JobCommandEvent(JOB, JobCommand.PURGE, null, NOW, null, null, null,
                withNull))).isEqualTo("jobIds must not contain null");
        List<UUID> tooMany = new ArrayList<>(List.of(JOB));
        while (tooMany.size() <= JobCommandEvent.MAX_PURGED_JOBS) {
            tooMany.add(UUID.randomUUID());
        }
        assertThat(EventRules.problem(JobCommandEvent.purge(tooMany, NOW)))
                .isEqualTo("jobIds names at most 1000 jobs, got 1001");
    }

    @Test
    void aTraceIdTooLongForItsColumnIsNamed() {
        assertThat(EventRules.problem(created("a".repeat(100), 3, PAYLOAD, NOW)))
                .isEqualTo("traceId must be 32 lower-case hex characters, got 100 characters");
        assertThat(EventRules.problem(created("0AF7651916CD43DD8448EB211C80319C", 3, PAYLOAD, NOW)))
                .startsWith("traceId must be 32 lower-case hex characters");
        assertThat(EventRules.problem(created("0".repeat(32), 3, PAYLOAD, NOW))).startsWith("traceId");
        assertThat(EventRules.problem(created(null, 3, PAYLOAD, NOW))).as("absent is allowed").isNull();
    }

    @Test
    void numbersOutOfRangeAreNamed() {
        assertThat(EventRules.problem(created(TRACE, -1, PAYLOAD, NOW))).isEqualTo(
                "maxRetries must be between 0 and 100, got -1");
        assertThat(EventRules.problem(created(TRACE, Integer.MAX_VALUE, PAYLOAD, NOW))).startsWith("maxRetries");
        assertThat(EventRules.problem(new JobCompletedEvent(null, JOB, 0, TRACE, NOW, NOW, "w", null)))
                .isEqualTo("attempt must be between 1 and 10000, got 0");
        assertThat(EventRules.problem(new JobStatusChangedEvent(JOB, JobStatus.RUNNING, 0, 1, 0, 3, null, null,
                TRACE, NOW, NOW, null))).isEqualTo("version must be 1 or more, got 0");
    }

    @Test
    void missingFieldsAreNamed() {
        assertThat(EventRules.problem(new JobCreatedEvent(null, JobType.SIMULATION, PAYLOAD, 0, TRACE, NOW)))
                .isEqualTo("jobId is required");
        assertThat(EventRules.problem(new JobCreatedEvent(JOB, null, PAYLOAD, 0, TRACE, NOW)))
                .isEqualTo("jobType is required");
        assertThat(EventRules.problem(created(TRACE, 0, null, NOW))).isEqualTo("payload is required");
        assertThat(EventRules.problem(new RunJobEvent(null, JOB, 1, JobType.SIMULATION, PAYLOAD, TRACE, NOW, NOW,
                NOW))).isEqualTo("eventId is required");
        assertThat(EventRules.problem(new JobStatusChangedEvent(JOB, null, 1, 1, 0, 3, null, null, TRACE, NOW, NOW,
                null))).isEqualTo("status is required");
    }

    @Test
    void stepsAreCheckedAgainstTheCeilings() {
        assertThat(EventRules.problem(created(TRACE, 0, new JobPayload(List.of()), NOW)))
                .isEqualTo("payload.steps must hold at least one step");
        assertThat(EventRules.problem(created(TRACE, 0, new JobPayload(List.of(new Step.Sleep(-5L))), NOW)))
                .isEqualTo("payload.steps[0].durationMs must be between 0 and 3600000, got -5");
        assertThat(EventRules.problem(created(TRACE, 0, new JobPayload(List.of(new Step.Log("x".repeat(70_000)))),
                NOW))).isEqualTo("payload.steps[0].message must be at most 65536 characters, got 70000");
        List<Step> many = new ArrayList<>(Collections.nCopies(1001, new Step.Log("x")));
        assertThat(EventRules.problem(created(TRACE, 0, new JobPayload(many), NOW)))
                .isEqualTo("payload.steps must hold at most 1000 steps, got 1001");
        List<Step> withNull = new ArrayList<>();
        withNull.add(null);
        assertThat(EventRules.problem(created(TRACE, 0, new JobPayload(withNull), NOW)))
                .startsWith("payload.steps[0] must be a step object");
    }

    @Test
    void stringsTooLongForTheirColumnsAreNamed() {
        assertThat(EventRules.problem(new JobFailedEvent(null, JOB, 1, TRACE, "e".repeat(8193), NOW, NOW, "w")))
                .isEqualTo("errorMessage must be at most 8192 characters, got 8193");
        assertThat(EventRules.problem(new JobCompletedEvent(null, JOB, 1, TRACE, NOW, NOW, "w".repeat(201), null)))
                .isEqualTo("workerId must be at most 200 characters, got 201");
    }

    @Test
    void instantsADatabaseCannotHoldAreNamed() {
        assertThat(EventRules.problem(created(TRACE, 0, PAYLOAD, Instant.parse("+100000-01-01T00:00:00Z"))))
                .startsWith("createdAt must be between 2000-01-01T00:00:00Z and 2200-01-01T00:00:00Z");
        assertThat(EventRules.problem(created(TRACE, 0, PAYLOAD, Instant.EPOCH))).startsWith("createdAt");
    }

    @Test
    void aRecordMustBeKeyedByItsJobId() {
        assertThat(EventRules.keyProblem(JOB.toString(), JOB)).isNull();
        assertThat(EventRules.keyProblem(null, JOB)).isEqualTo(
                "the record has no key; it must be keyed by its jobId " + JOB);
        assertThat(EventRules.keyProblem("other", JOB)).isEqualTo(
                "the record's key must be its jobId " + JOB + ", got 'other'");
    }

    @Test
    void theNulCharacterNoColumnCanStoreIsNamed() {
        assertThat(EventRules.problem(new JobFailedEvent(null, JOB, 1, TRACE, "bad\u0000byte", NOW, NOW, "w")))
                .isEqualTo("errorMessage must not contain the NUL character (U+0000), which the database cannot store");
        assertThat(EventRules.problem(created(TRACE, 0, new JobPayload(List.of(new Step.Log("a\u0000b"))), NOW)))
                .isEqualTo("payload.steps[0].message must not contain the NUL character (U+0000)");
    }

    @Test
    void aDeadLetterNeedsItsJobAndFailureInstantAndBoundedFields() {
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "boom", 3, NOW, TRACE, "acme",
                java.util.Map.of("team", "billing")))).isNull();
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, null, 0, NOW, null))).isNull();
        assertThat(EventRules.problem(new DeadLetterEvent(null, "boom", 3, NOW, TRACE))).isEqualTo("jobId is required");
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "boom", 3, null, TRACE)))
                .isEqualTo("failedAt is required");
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "boom", -1, NOW, TRACE))).startsWith("finalRetryCount");
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "boom", 3, Instant.EPOCH, TRACE)))
                .startsWith("failedAt must be between");
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "x".repeat(EventRules.MAX_ERROR_LENGTH + 1), 3, NOW,
                TRACE))).startsWith("reason must be at most");
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "boom", 3, NOW, "nope"))).startsWith("traceId");
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "boom", 3, NOW, TRACE, "Bad Tenant", null)))
                .startsWith("tenant must match");
        assertThat(EventRules.problem(new DeadLetterEvent(JOB, "boom", 3, NOW, TRACE, null,
                java.util.Map.of("team", "x".repeat(256))))).startsWith("labels.team must be at most 255");
    }
}
