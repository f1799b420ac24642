package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * A status the rules accept but the database refuses for good is quarantined as {@code REJECTED_BY_DATABASE} (the write
 * it was part of is split until it stands alone), and the other statuses of that write are stored. No status that
 * passes the rules is refused by the read model's columns, so the test makes the database refuse one
 * ({@link Database#refuseLastError}: a CHECK constraint, SQL state 23514).
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobStatusConsumerRejectedTest extends ConsumerTestSupport {

    @Test
    void aStatusTheDatabaseRefusesIsQuarantinedAndTheRestOfItsWriteStored() throws Exception {
        Database.whileRefusingALastError(this::refusedIsQuarantinedAndTheRestStored);
    }

    private void refusedIsQuarantinedAndTheRestStored(String refusedError) {
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            jobIds.add(Jobs.submitOne());
        }
        int refused = 4;
        List<JobStatusChangedEvent> events = new ArrayList<>();
        for (int i = 0; i < jobIds.size(); i++) {
            events.add(i == refused ? StatusEvents.event(jobIds.get(i), JobStatus.FAILED, 3, 3, refusedError)
                    : StatusEvents.event(jobIds.get(i), JobStatus.COMPLETED, 3, 1, null));
        }
        assertThat(EventRules.problem(events.get(refused))).as("the refused status passes the rules").isNull();
        double rejectedBefore = rejected();

        // one producer, sent together: most likely one poll, so one write that has to be split
        List<RecordMetadata> landed = StatusEvents.sendAll(mapper, events);
        Position refusedAt = new Position(Topics.JOB_STATUS, landed.get(refused).partition(),
                landed.get(refused).offset());

        ConsumerRecord<String, byte[]> copy = QuarantineTopic.awaitQuarantined(KafkaProbe.bootstrapServers(),
                List.of(refusedAt), Duration.ofSeconds(30)).get(refusedAt);
        assertThat(copy).as("quarantined copy at %s", refusedAt).isNotNull();
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.REJECTED_BY_DATABASE.name());
        assertThat(QuarantineTopic.header(copy, QuarantineHeaders.DETAIL)).contains("23514");
        assertThat(copy.key()).isEqualTo(jobIds.get(refused));
        assertThat(copy.value()).isEqualTo(StatusEvents.json(mapper, events.get(refused)));
        await().atMost(Duration.ofSeconds(20)).until(() -> jobIds.stream().filter(id -> !id.equals(jobIds.get(refused)))
                .allMatch(id -> "COMPLETED".equals(Jobs.get(id).getString("status"))));
        assertThat(Jobs.get(jobIds.get(refused)).getString("status")).isEqualTo("PENDING");
        await().atMost(Duration.ofSeconds(10)).until(() -> rejected() >= rejectedBefore + 1);
        assertThat(rejected()).as("only the refused status").isEqualTo(rejectedBefore + 1);
    }

    private double rejected() {
        return quarantine.count(Topics.JOB_STATUS, QuarantineReason.REJECTED_BY_DATABASE);
    }
}
