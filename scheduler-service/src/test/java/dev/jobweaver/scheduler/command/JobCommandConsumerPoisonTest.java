package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** Every hostile record of job-commands is quarantined at its position, and the commands around it are applied. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandConsumerPoisonTest extends KafkaAndDbTest {

    /** What a command cannot do without: its job, what to do, and when it was asked for. */
    private static final Set<String> REQUIRED = Set.of("jobId", "command", "requestedAt");

    @Inject
    QuarantineCounts quarantined;

    @Test
    void everyPoisonOfJobCommandsIsQuarantinedAndTheCancelsAroundItAreApplied() {
        UUID base = UUID.randomUUID();
        List<Poison> corpus = PoisonCorpus.of(json(TestJobs.cancel(base)), base.toString(), REQUIRED);
        double before = quarantined.total(Topics.JOB_COMMANDS);

        // Each good cancel cancels a job for later.
        Produced produced = PoisonRecords.produceAmongGood(bootstrapServers, Topics.JOB_COMMANDS, corpus, 6,
                this::delayedJob, jobId -> jsonBytes(TestJobs.cancel(jobId)));
        UUID last = delayedJob();
        command(TestJobs.cancel(last));

        db.awaitJob(last, j -> j.status() == JobStatus.CANCELLED);
        produced.good().forEach(jobId -> db.awaitJob(jobId, j -> j.status() == JobStatus.CANCELLED));
        assertThat(db.find(base)).as("no poison was applied as a cancel of its key").isEmpty();

        PoisonRecords.assertQuarantinedAsProduced(bootstrapServers, corpus, produced.poisons());
        quarantined.awaitCountedSince(Topics.JOB_COMMANDS, before, corpus.size());
    }
}
