package dev.jobweaver.api.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.RepublishRound;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limits the republisher finds ({@link TenantLimitRepository#toRepublish}): a change younger than one round is left
 * to the publish after its commit, whether Kafka has not acknowledged it or the limit is due for a refresh; an older
 * one is due.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class TenantLimitRepositoryTest {

    private static final String INSERT = """
            INSERT INTO tenant_limits (tenant, max_running, version, published_version, published_at, updated_at)
            VALUES (?, 5, ?, ?, ?, ?)
            """;

    @Inject TenantLimitRepository limits;
    @Inject TenantLimitConfig config;

    @Test
    void aChangeKafkaDidNotAcknowledgeIsDueOnlyOnceOlderThanOneRound() throws Exception {
        try (RepublishRound round = RepublishRound.of(config.republishInterval())) {
            Instant publishedAt = round.start().minus(Duration.ofHours(1));
            String young = limit(round, 2, publishedAt, round.justChanged());
            String old = limit(round, 2, publishedAt, round.changedTwoRoundsBefore());

            assertThat(due(round)).contains(old).doesNotContain(young);
        }
    }

    @Test
    void aLimitDueForARefreshIsDueOnlyOnceItsLastChangeIsOlderThanOneRound() throws Exception {
        try (RepublishRound round = RepublishRound.of(config.republishInterval())) {
            Instant longAgo = round.refreshBefore(config.refreshAfter()).minus(Duration.ofHours(1));
            String young = limit(round, 1, longAgo, round.justChanged());
            String old = limit(round, 1, longAgo, round.changedTwoRoundsBefore());

            assertThat(due(round)).contains(old).doesNotContain(young);
        }
    }

    /** A tenant's limit of 5 at {@code version}, of which Kafka acknowledged version 1 at {@code publishedAt}. */
    private static String limit(RepublishRound round, long version, Instant publishedAt, Instant changedAt)
            throws Exception {
        String tenant = Tenants.fresh("due");
        round.stamp(INSERT, tenant, version, 1, publishedAt, changedAt);
        round.removeOnClose("DELETE FROM tenant_limits WHERE tenant = ?", tenant);
        return tenant;
    }

    /** The tenants whose limits the round publishes. */
    private List<String> due(RepublishRound round) throws Exception {
        List<TenantLimit> rows = RepublishRound.inSession(() -> limits.toRepublish(round.settledBefore(),
                round.refreshBefore(config.refreshAfter()), 10_000));
        return rows.stream().map(row -> row.tenant).toList();
    }
}
