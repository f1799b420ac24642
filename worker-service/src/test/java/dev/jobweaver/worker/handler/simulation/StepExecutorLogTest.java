package dev.jobweaver.worker.handler.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.JobLog;
import dev.jobweaver.worker.testing.TestTrace;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.UUID;
import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/** A LOG step writes its message, verbatim, at INFO under {@code jobweaver.job}, with the job's traceId and jobId. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class StepExecutorLogTest {

    @Test
    void theMessageIsLoggedAtInfoWithTheJobsTraceIdAndJobId() throws Exception {
        TestTrace sent = TestTrace.random();
        String traceId = sent.traceId();
        // Braces and a percent sign: the message is what the job said, never a format pattern.
        String message = "50% done {0} %s " + UUID.randomUUID();
        RunJobEvent run = sent.on(WorkerKafka.run(new Step.Log(message)));
        ExtLogRecord line;
        try (JobLog log = JobLog.listening()) {
            try (WorkerKafka kafka = new WorkerKafka()) {
                kafka.sendInTrace(run, sent.traceparent());
            }
            line = await().atMost(Duration.ofSeconds(60)).until(() -> log.records().stream()
                    .filter(r -> message.equals(r.getFormattedMessage())).findFirst().orElse(null), r -> r != null);
        }
        assertThat(line.getLevel()).isEqualTo(Level.INFO);
        assertThat(line.getLoggerName()).isEqualTo("jobweaver.job");
        assertThat(line.getMdc("traceId")).isEqualTo(traceId);
        assertThat(line.getMdc("jobId")).isEqualTo(run.jobId().toString());
    }
}
