package dev.jobweaver.scheduler.outcome;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.PoisonCorpus;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords.Produced;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.QuarantineCounts;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every hostile record of job-completed and job-failed is quarantined at its position, and the outcomes around it
 * are applied.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeConsumerPoisonTest extends KafkaAndDbTest {

    /** What an outcome cannot do without: its job, and the attempt it reports on (0 is none). */
    private static final Set<String> REQUIRED = Set.of("jobId", "attempt");

    @Inject
    QuarantineCounts quarantined;

    @Test
    void everyPoisonOfJobCompletedIsQuarantinedAndTheCompletionsAroundItAreApplied() {
        everyPoisonIsQuarantinedAndTheOutcomesAroundItAreApplied(Topics.JOB_COMPLETED,
                jobId -> TestJobs.completed(jobId, 1), JobStatus.COMPLETED);
    }

    @Test
    void everyPoisonOfJobFailedIsQuarantinedAndTheFailuresAroundItAreApplied() {
        everyPoisonIsQuarantinedAndTheOutcomesAroundItAreApplied(Topics.JOB_FAILED,
                jobId -> TestJobs.failed(jobId, 1, "failed for the test"), JobStatus.FAILED);
    }

    private void everyPoisonIsQuarantinedAndTheOutcomesAroundItAreApplied(String topic, Function<UUID, ?> outcome,
                                                                          JobStatus applied) {
        UUID base = UUID.randomUUID();
        List<Poison> corpus = PoisonCorpus.of(json(outcome.apply(base)), base.toString(), REQUIRED);
        double before = quarantined.total(topic);

        // Each good outcome ends a job dispatched for it.
        Produced produced = PoisonRecords.produceAmongGood(bootstrapServers, topic, corpus, 6, this::runningJob,
                jobId -> jsonBytes(outcome.apply(jobId)));
        UUID last = runningJob();
        producer.sendJson(topic, last, outcome.apply(last));

        db.awaitJob(last, j -> j.status() == applied);
        produced.good().forEach(jobId -> db.awaitJob(jobId, j -> j.status() == applied));

        PoisonRecords.assertQuarantinedAsProduced(bootstrapServers, corpus, produced.poisons());
        quarantined.awaitCountedSince(topic, before, corpus.size());
    }
}
