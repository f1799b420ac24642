package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

/**
 * Each tick on {@code schedule-fired} makes one job from its schedule's template, with its origin, in its trace; a
 * repeated tick makes nothing more; a tick of a deleted or paused schedule makes nothing; a bad record is quarantined
 * and the tick behind it made.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduleFiredConsumerTest extends ConsumerTestSupport {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void aTickMakesOneJobWithItsOriginInItsTrace() throws Exception {
        String scheduleId = Schedules.createOne();
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(60);
        UUID jobId = JobIds.forTick(UUID.fromString(scheduleId), tick);
        double before = Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "tick");
        try (KafkaProbe created = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            KafkaProbe.sendAll(List.of(traced(new ScheduleFiredEvent(UUID.fromString(scheduleId), 1, jobId, tick,
                    Instant.now(), false))));

            List<ConsumerRecord<String, byte[]>> records = created.pollUntil(
                    seen -> seen.stream().anyMatch(r -> jobId.toString().equals(r.key())), Duration.ofSeconds(30));
            ConsumerRecord<String, byte[]> record = records.stream().filter(r -> jobId.toString().equals(r.key()))
                    .findFirst().orElseThrow();
            JobCreatedEvent event = mapper.readValue(record.value(), JobCreatedEvent.class);
            assertThat(event.origin()).isEqualTo(new JobOrigin(UUID.fromString(scheduleId), tick));
            assertThat(event.traceId()).as("the tick's trace").isEqualTo(TRACE_ID);
            assertThat(event.maxRetries()).isEqualTo(2);
            assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).startsWith("00-" + TRACE_ID + "-");
        }

        JsonPath job = Jobs.get(jobId.toString());
        assertThat(job.getString("scheduleId")).isEqualTo(scheduleId);
        assertThat(Instant.parse(job.getString("scheduledFor"))).isEqualTo(tick);
        assertThat(job.getString("status")).isEqualTo("PENDING");
        assertThat(job.getString("traceId")).isEqualTo(TRACE_ID);
        assertThat(job.getString("payload.steps[0].message")).isEqualTo("hi");
        assertThat(Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "tick")).isEqualTo(before + 1);
    }

    @Test
    void theSameTickTwiceMakesOneJob() throws Exception {
        String scheduleId = Schedules.createOne();
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(120);
        ScheduleFiredEvent event = new ScheduleFiredEvent(UUID.fromString(scheduleId), 1,
                JobIds.forTick(UUID.fromString(scheduleId), tick), tick, Instant.now(), true);
        double repeated = Jobs.count(registry, "jobweaver.schedule.ticks.ignored", "reason", "repeated");
        double catchUps = Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "catch-up");

        Schedules.fire(mapper, event);
        await().atMost(Duration.ofSeconds(30)).until(() -> jobsOf(scheduleId) == 1);
        Schedules.fire(mapper, event);
        // in one poll too
        KafkaProbe.sendAll(List.of(record(event), record(event)));
        await().atMost(Duration.ofSeconds(30)).until(() -> Jobs.count(registry, "jobweaver.schedule.ticks.ignored",
                "reason", "repeated") >= repeated + 2);

        assertThat(jobsOf(scheduleId)).isEqualTo(1);
        assertThat(outboxRowsOf(event.jobId())).as("no second outbox row").isLessThanOrEqualTo(1);
        assertThat(Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "catch-up")).isEqualTo(catchUps + 1);
        JsonPath listed = Schedules.jobsOf(scheduleId);
        assertThat(listed.getList("jobs.id")).containsExactly(event.jobId().toString());
        assertThat(given().get("/api/schedules/" + scheduleId).jsonPath().getLong("firedCount"))
                .as("its history counts the tick once").isEqualTo(1);
    }

    @Test
    void aMalformedRecordIsQuarantinedAndTheTickBehindItMade() {
        String scheduleId = Schedules.createOne();
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(180);
        UUID jobId = JobIds.forTick(UUID.fromString(scheduleId), tick);
        double unreadable = quarantine.count(Topics.SCHEDULE_FIRED, QuarantineReason.UNREADABLE);
        double invalid = quarantine.count(Topics.SCHEDULE_FIRED, QuarantineReason.INVALID);
        ScheduleFiredEvent good = new ScheduleFiredEvent(UUID.fromString(scheduleId), 1, jobId, tick, Instant.now(),
                false);

        KafkaProbe.sendAll(List.of(
                new ProducerRecord<>(Topics.SCHEDULE_FIRED, scheduleId, "{not json".getBytes(StandardCharsets.UTF_8)),
                new ProducerRecord<>(Topics.SCHEDULE_FIRED, scheduleId,
                        "{\"scheduleId\":\"%s\"}".formatted(scheduleId).getBytes(StandardCharsets.UTF_8)),
                // keyed by another schedule: could overtake that schedule's ticks
                new ProducerRecord<>(Topics.SCHEDULE_FIRED, UUID.randomUUID().toString(),
                        Schedules.json(mapper, good)),
                record(good)));

        await().atMost(Duration.ofSeconds(30)).until(() -> jobsOf(scheduleId) == 1);
        assertThat(Jobs.get(jobId.toString()).getString("scheduleId")).isEqualTo(scheduleId);
        // the record keyed by another schedule sits on another partition, read in its own poll
        await().atMost(Duration.ofSeconds(30)).until(() ->
                quarantine.count(Topics.SCHEDULE_FIRED, QuarantineReason.UNREADABLE) == unreadable + 1
                        && quarantine.count(Topics.SCHEDULE_FIRED, QuarantineReason.INVALID) == invalid + 2);
    }

    @Test
    void ticksOfADeletedOrPausedScheduleMakeNothing() throws Exception {
        String deleted = Schedules.createOne();
        String paused = Schedules.createOne();
        String live = Schedules.createOne();
        given().delete("/api/schedules/" + deleted).then().statusCode(204);
        given().post("/api/schedules/" + paused + "/pause").then().statusCode(200);
        double noSchedule = Jobs.count(registry, "jobweaver.schedule.ticks.ignored", "reason", "no-schedule");
        double pausedBefore = Jobs.count(registry, "jobweaver.schedule.ticks.ignored", "reason", "paused");
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(240);

        KafkaProbe.sendAll(List.of(record(tickOf(deleted, tick)), record(tickOf(paused, tick)),
                record(tickOf(Schedules.unknownId(), tick)), record(tickOf(live, tick))));

        // the live schedule's tick, in the same partition order or not, shows the others were consumed
        await().atMost(Duration.ofSeconds(30)).until(() -> jobsOf(live) == 1
                && Jobs.count(registry, "jobweaver.schedule.ticks.ignored", "reason", "no-schedule") >= noSchedule + 2
                && Jobs.count(registry, "jobweaver.schedule.ticks.ignored", "reason", "paused") >= pausedBefore + 1);
        assertThat(jobsOf(deleted)).isZero();
        assertThat(jobsOf(paused)).isZero();
    }

    private static ScheduleFiredEvent tickOf(String scheduleId, Instant tick) {
        UUID id = UUID.fromString(scheduleId);
        return new ScheduleFiredEvent(id, 1, JobIds.forTick(id, tick), tick, Instant.now(), false);
    }

    private ProducerRecord<String, byte[]> record(ScheduleFiredEvent event) {
        return new ProducerRecord<>(Topics.SCHEDULE_FIRED, event.scheduleId().toString(),
                Schedules.json(mapper, event));
    }

    /** {@code event}'s record with a {@code traceparent} of {@link #TRACE_ID}, as the scheduler's tick span sends. */
    private ProducerRecord<String, byte[]> traced(ScheduleFiredEvent event) {
        ProducerRecord<String, byte[]> record = record(event);
        record.headers().add(new RecordHeader(Headers.TRACEPARENT,
                ("00-" + TRACE_ID + "-00f067aa0ba902b7-01").getBytes(StandardCharsets.UTF_8)));
        return record;
    }

    private static long jobsOf(String scheduleId) throws Exception {
        return Database.firstLong("SELECT count(*) FROM jobs WHERE schedule_id = ?", UUID.fromString(scheduleId));
    }

    private static long outboxRowsOf(UUID jobId) throws Exception {
        return Database.firstLong("SELECT count(*) FROM job_outbox WHERE job_id = ?", jobId);
    }
}
