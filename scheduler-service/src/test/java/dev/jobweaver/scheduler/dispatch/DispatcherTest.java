package dev.jobweaver.scheduler.dispatch;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Priority;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TopicRecorder;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class DispatcherTest extends KafkaAndDbTest {

    private static final String SLOW_STEPS = "{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":2000},"
            + "{\"action\":\"HTTP_CALL\",\"url\":\"http://example.test\",\"latencyMs\":500},"
            + "{\"action\":\"COMPUTE\",\"iterations\":10000000},{\"action\":\"LOG\",\"message\":\"done\"}]}";

    @Inject
    Dispatcher dispatcher;

    @Inject
    SchedulerConfig config;

    @Test
    void dispatchesOnlyDueJobsWithKeyEventIdHeadersAndLease() {
        UUID due = db.pending(SLOW_STEPS, 1, -1);
        UUID later = db.pending(SLOW_STEPS, 1, 3600);

        dispatcher.wake();

        ConsumerRecord<String, byte[]> record = recorder.await(Topics.RUN_JOB, due, 1).getFirst();
        RunJobEvent run = value(record, RunJobEvent.class);
        UUID expectedEventId = EventIds.runEventId(due, 1);
        assertThat(record.key()).isEqualTo(due.toString());
        assertThat(TopicRecorder.header(record, Headers.EVENT_ID)).isEqualTo(expectedEventId.toString());
        assertThat(run.eventId()).isEqualTo(expectedEventId);
        assertThat(run.jobId()).isEqualTo(due);
        assertThat(run.attempt()).isEqualTo(1);
        assertThat(run.traceId()).isEqualTo(TestJobs.traceId(due));
        assertThat(Payloads.simulation(run.payload()).steps()).hasSize(4).first().isEqualTo(new Step.Sleep(2000L));
        // SLEEP 2000 + HTTP_CALL 500 + COMPUTE 10M iterations at 50 ms per million (500) + the grace.
        assertThat(Duration.between(run.dispatchedAt(), run.leaseUntil()))
                .isEqualTo(Duration.ofMillis(3_000).plus(config.lease().grace()));

        JobExecution row = db.awaitJob(due, JobStatus.RUNNING, 1);
        assertThat(row.version()).isEqualTo(1);
        assertThat(row.leaseUntil()).isEqualTo(run.leaseUntil());
        assertThat(row.dispatchedAt()).isEqualTo(run.dispatchedAt());

        ConsumerRecord<String, byte[]> statusRecord = recorder.await(Topics.JOB_STATUS, due, 1).getFirst();
        JobStatusChangedEvent status = value(statusRecord, JobStatusChangedEvent.class);
        assertThat(status.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(status.version()).isEqualTo(1);
        assertThat(status.attempts()).isEqualTo(1);
        assertThat(TopicRecorder.header(statusRecord, Headers.EVENT_ID))
                .isEqualTo(EventIds.statusEventId(due, 1).toString());

        // A full round after the due job's: the job that is not due yet stays where it was.
        dispatcher.dispatchRound().await().atMost(Duration.ofSeconds(30));
        JobExecution notDue = db.get(later);
        assertThat(notDue.status()).isEqualTo(JobStatus.PENDING);
        assertThat(notDue.attempt()).isZero();
        assertThat(recorder.records(Topics.RUN_JOB, later)).isEmpty();
    }

    @Test
    void aJobWhoseStoredInstructionIsUnreadableIsDeadLetteredInsteadOfBlockingDispatch() {
        UUID broken = db.pending("{\"steps\":[{\"action\":\"TELEPORT\"}]}", 3, -2);
        UUID fine = db.pending("{\"steps\":[{\"action\":\"LOG\",\"message\":\"ok\"}]}", 0, -1);

        dispatcher.wake();

        db.awaitJob(fine, JobStatus.RUNNING, 1);
        JobExecution failed = db.awaitJob(broken, j -> j.status() == JobStatus.FAILED);
        assertThat(failed.lastError()).isEqualTo(Dispatcher.UNREADABLE);
        assertThat(failed.attempt()).isZero();
        assertThat(recorder.records(Topics.RUN_JOB, broken)).isEmpty();
        DeadLetterEvent deadLetter = value(recorder.await(Topics.JOB_DEAD_LETTER, broken, 1).getFirst(),
                DeadLetterEvent.class);
        assertThat(deadLetter.reason()).isEqualTo(Dispatcher.UNREADABLE);
        assertThat(awaitStatuses(broken, 1).getFirst().status())
                .isEqualTo(JobStatus.FAILED);
    }

    @Test
    void racingDispatchersNeverDispatchTheSameAttemptTwice() {
        List<UUID> jobs = IntStream.range(0, 150).mapToObj(i -> UUID.randomUUID()).toList();
        jobs.forEach(id -> db.insertPending(id, "{\"steps\":[{\"action\":\"LOG\",\"message\":\"race\"}]}", 0, -1));

        // Four dispatchers, each on its own connection and transaction, claiming until nothing is left.
        List<Uni<List<UUID>>> racers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            racers.add(Multi.createBy().repeating().uni(dispatcher::dispatchRound)
                    .whilst(claimed -> !claimed.isEmpty())
                    .collect().in(ArrayList<UUID>::new, ArrayList::addAll)
                    .map(l -> (List<UUID>) l));
        }
        List<List<UUID>> claimedByRacer = Uni.join().all(racers).andFailFast().await().atMost(Duration.ofSeconds(60));

        List<UUID> mineClaimed = claimedByRacer.stream().flatMap(List::stream).filter(jobs::contains).toList();
        assertThat(new HashSet<>(mineClaimed)).as("no job claimed by two racers").hasSameSizeAs(mineClaimed);

        for (UUID id : jobs) {
            JobExecution row = db.awaitJob(id, JobStatus.RUNNING, 1);
            assertThat(row.version()).isEqualTo(1);
        }
        Set<UUID> dispatched = new HashSet<>();
        for (UUID id : jobs) {
            List<ConsumerRecord<String, byte[]>> runs = recorder.await(Topics.RUN_JOB, id, 1);
            dispatched.add(id);
            assertThat(runs).as("run-job records of %s", id).hasSize(1);
        }
        assertThat(dispatched).hasSize(jobs.size());
        // Records of later jobs arrived after the earlier checks: check again now that all are there.
        for (UUID id : jobs) {
            assertThat(recorder.records(Topics.RUN_JOB, id)).as("run-job records of %s", id).hasSize(1);
        }
    }

    @Test
    void aStoredHttpJobIsDispatchedWithItsPayloadAndControlAndAnOldRowWithTheDefaults() throws Exception {
        UUID http = UUID.randomUUID();
        String payload = "{\"method\":\"GET\",\"url\":\"https://example.test/status\"}";
        db.update("INSERT INTO job_executions (job_id, job_type, trace_id, instruction, job_status, max_retries,"
                + " next_run_at, created_at, updated_at, priority, timeout_ms, tenant, labels)"
                + " VALUES ($1, 'HTTP', $2, $3::text::jsonb, 'PENDING', 0, now() - interval '1 second', now(), now(),"
                + " 'LOW', 4000, 'acme', '{\"team\":\"blue\"}'::jsonb)", http, TestJobs.traceId(http), payload);
        // A row as stored before job control: its columns take their defaults.
        UUID old = db.pending(TestJobs.LOG_INSTRUCTION, 0, -1);

        dispatcher.wake();

        RunJobEvent run = value(recorder.await(Topics.RUN_JOB, http, 1).getFirst(), RunJobEvent.class);
        assertThat(run.jobType()).isEqualTo(JobType.HTTP);
        assertThat(run.payload()).isEqualTo(mapper.readTree(payload));
        assertThat(run.control()).isEqualTo(new JobControl(Priority.LOW, null, 4_000L, null, "acme",
                java.util.Map.of("team", "blue")));
        assertThat(Duration.between(run.dispatchedAt(), run.leaseUntil()))
                .isEqualTo(Duration.ofMillis(4_000).plus(config.lease().grace()));
        RunJobEvent oldRun = value(recorder.await(Topics.RUN_JOB, old, 1).getFirst(), RunJobEvent.class);
        assertThat(oldRun.control()).isEqualTo(new JobControl(Priority.NORMAL, null, null, null,
                JobControl.DEFAULT_TENANT, null));
    }
}
