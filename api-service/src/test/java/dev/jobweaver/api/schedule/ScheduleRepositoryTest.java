package dev.jobweaver.api.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.RepublishRound;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The schedules the republisher finds ({@link ScheduleRepository#toRepublish}): a change, a delete or a refresh younger
 * than one round is left to the publish after its commit; an older one is due.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduleRepositoryTest {

    private static final String CHANGED = "UPDATE schedules SET version = 2, updated_at = ? WHERE id = ?";
    private static final String DELETED =
            "UPDATE schedules SET version = 2, deleted_at = ?, updated_at = ? WHERE id = ?";
    private static final String NOT_REFRESHED =
            "UPDATE schedules SET published_at = ?, updated_at = ? WHERE id = ?";

    @Inject ScheduleRepository schedules;
    @Inject ScheduleConfig config;

    @Test
    void aChangeKafkaDidNotAcknowledgeIsDueOnlyOnceOlderThanOneRound() throws Exception {
        try (RepublishRound round = RepublishRound.of(config.republishInterval())) {
            UUID young = settled(round, CHANGED, round.justChanged());
            UUID old = settled(round, CHANGED, round.changedTwoRoundsBefore());

            assertThat(due(round)).contains(old).doesNotContain(young);
        }
    }

    @Test
    void aDeleteIsDueForItsTombstoneOnlyOnceOlderThanOneRound() throws Exception {
        try (RepublishRound round = RepublishRound.of(config.republishInterval())) {
            UUID young = settled(round, DELETED, round.justChanged(), round.justChanged());
            UUID old = settled(round, DELETED, round.changedTwoRoundsBefore(), round.changedTwoRoundsBefore());

            assertThat(due(round)).contains(old).doesNotContain(young);
        }
    }

    @Test
    void aScheduleDueForARefreshIsDueOnlyOnceItsLastChangeIsOlderThanOneRound() throws Exception {
        try (RepublishRound round = RepublishRound.of(config.republishInterval())) {
            Instant longAgo = round.refreshBefore(config.refreshAfter()).minus(Duration.ofHours(1));
            UUID young = settled(round, NOT_REFRESHED, longAgo, round.justChanged());
            UUID old = settled(round, NOT_REFRESHED, longAgo, round.changedTwoRoundsBefore());

            assertThat(due(round)).contains(old).doesNotContain(young);
        }
    }

    /**
     * A schedule whose creation Kafka acknowledged (so that the acknowledgement changes it no more), then changed by
     * {@code sql} with {@code params} and its id.
     */
    private static UUID settled(RepublishRound round, String sql, Object... params) throws Exception {
        String id = Schedules.createOne();
        UUID scheduleId = UUID.fromString(id);
        round.removeOnClose("DELETE FROM schedules WHERE id = ?", scheduleId);
        await().atMost(Duration.ofSeconds(20)).until(() -> SchedulePublisherTest.publishedVersion(id) == 1);
        Object[] withId = Arrays.copyOf(params, params.length + 1);
        withId[params.length] = scheduleId;
        round.stamp(sql, withId);
        return scheduleId;
    }

    /** The schedules the round publishes. */
    private List<UUID> due(RepublishRound round) throws Exception {
        List<Schedule> rows = RepublishRound.inSession(() -> schedules.toRepublish(round.settledBefore(),
                round.refreshBefore(config.refreshAfter()), 10_000));
        return rows.stream().map(row -> row.id).toList();
    }
}
