package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.job.store.StoredJob;
import dev.jobweaver.api.testing.CommandSpans;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A command's spans join the job's trace: the {@code cancel job} or {@code delete job} span under a stand-in parent
 * with the job's trace id, the PRODUCER span under it, and the record's traceparent naming that PRODUCER span; the
 * stand-in is sampled as the job's trace was.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobCommandServiceTest {

    @Inject
    CommandSpans spans;

    @Test
    void aCancelAndADeleteAreSpansOfTheJobsTrace() throws Exception {
        String cancelled = Jobs.submitOne();
        String deleted = Jobs.submitOne();
        JobCommands.setStatus(deleted, JobStatus.COMPLETED);
        String cancelledTrace = Jobs.get(cancelled).getString("traceId");
        String deletedTrace = Jobs.get(deleted).getString("traceId");

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            assertThat(JobCommands.cancel(cancelled).statusCode()).isEqualTo(202);
            assertThat(JobCommands.delete(deleted).statusCode()).isEqualTo(204);
            probe.pollUntil(seen -> !probe.withKey(cancelled).isEmpty() && !probe.withKey(deleted).isEmpty(),
                    Duration.ofSeconds(20));

            assertInJobTrace("cancel job", cancelled, cancelledTrace, probe.withKey(cancelled).getFirst());
            assertInJobTrace("delete job", deleted, deletedTrace, probe.withKey(deleted).getFirst());
        }
    }

    private void assertInJobTrace(String name, String jobId, String traceId, ConsumerRecord<String, byte[]> record) {
        await().atMost(Duration.ofSeconds(10)).until(() -> span(name, traceId) != null);
        SpanData command = span(name, traceId);
        assertThat(command.getAttributes().get(AttributeKey.stringKey("jobweaver.job.id"))).isEqualTo(jobId);
        assertThat(command.getParentSpanContext().isRemote()).as("under the job's stand-in parent").isTrue();
        SpanData producer = span("job-commands publish", traceId);
        assertThat(producer).as("PRODUCER span in the job's trace").isNotNull();
        assertThat(producer.getParentSpanId()).as("PRODUCER span's parent").isEqualTo(command.getSpanId());
        assertThat(KafkaProbe.header(record, "traceparent"))
                .isEqualTo("00-" + traceId + "-" + producer.getSpanId() + "-01");
    }

    private SpanData span(String name, String traceId) {
        return spans.ended().stream().filter(s -> s.getName().equals(name) && s.getTraceId().equals(traceId))
                .findFirst().orElse(null);
    }

    @Test
    void theJobsContextIsSampledAsItsTraceWasAndNoneWithoutAValidTraceId() {
        StoredJob job = job("4bf92f3577b34da6a3ce929d0e0e4736");

        SpanContext always = Span.fromContext(JobCommandService.jobContext(job, Sampler.traceIdRatioBased(1.0)))
                .getSpanContext();
        SpanContext never = Span.fromContext(JobCommandService.jobContext(job, Sampler.traceIdRatioBased(0.0)))
                .getSpanContext();

        assertThat(always.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(always.isRemote()).isTrue();
        assertThat(always.isSampled()).isTrue();
        assertThat(never.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(never.isSampled()).isFalse();
        assertThat(always.getSpanId()).as("the stand-in of one job is always the same").isEqualTo(Span.fromContext(
                JobCommandService.jobContext(job, Sampler.traceIdRatioBased(1.0))).getSpanContext().getSpanId());
        assertThat(JobCommandService.jobContext(job("not a trace id"), Sampler.traceIdRatioBased(1.0)))
                .isSameAs(Context.root());
    }

    private static StoredJob job(String traceId) {
        return new StoredJob(UUID.randomUUID(), null, null, traceId, JobStatus.PENDING, 0, 0, 0, null, null, null,
                null, null, 0, null, null, null, null, null, null, null);
    }
}
