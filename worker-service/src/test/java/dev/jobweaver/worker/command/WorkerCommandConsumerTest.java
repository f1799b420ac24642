package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.CollectingSpanExporter;
import dev.jobweaver.worker.testing.TestTrace;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * worker-commands as this worker reads it: from the start of the window, up to date before runs go ahead, and each
 * command applied in a span of the job's trace.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class WorkerCommandConsumerTest extends WorkerKafkaTest {

    @Inject
    StoppedJobs stopped;

    @Inject
    CollectingSpanExporter spans;

    @Test
    void theWorkerCatchesUpWithTheCommandsTopicAfterItStarts() {
        await().atMost(WAIT).until(stopped::isCurrent);
    }

    @Test
    void applyingACommandIsASpanOfTheJobsTrace() {
        TestTrace sent = TestTrace.random();
        String traceId = sent.traceId();
        UUID jobId = UUID.randomUUID();
        kafka.send(WorkerKafka.command(jobId, JobCommand.CANCEL), sent.traceparent());

        List<SpanData> trace = await().atMost(WAIT).until(() -> spans.trace(traceId),
                l -> l.stream().anyMatch(x -> x.getName().equals("apply job command")));
        SpanData applied = trace.stream().filter(x -> x.getName().equals("apply job command")).findFirst().orElseThrow();
        // Under the connector's receive span, which continues the record's traceparent.
        assertThat(trace).anySatisfy(x -> assertThat(x.getParentSpanId()).isEqualTo(sent.parentSpanId()));
        assertThat(applied.getParentSpanContext().isValid()).isTrue();
        assertThat(applied.getAttributes().get(AttributeKey.stringKey("jobweaver.job.id"))).isEqualTo(jobId.toString());
        assertThat(applied.getAttributes().get(AttributeKey.stringKey("jobweaver.command"))).isEqualTo("CANCEL");
        assertThat(stopped.command(jobId)).isEqualTo(JobCommand.CANCEL);
    }
}
