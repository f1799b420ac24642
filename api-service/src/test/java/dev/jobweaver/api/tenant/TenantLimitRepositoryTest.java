package dev.jobweaver.api.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.RepublishRound;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

    private final List<String> tenants = new ArrayList<>();
    private RepublishRound round;

    @BeforeEach
    void round() {
        round = RepublishRound.of(config.republishInterval());
    }

    @AfterEach
    void removeRows() throws Exception {
        for (String tenant : tenants) {
            RepublishRound.update("DELETE FROM tenant_limits WHERE tenant = ?", tenant);
        }
    }

    @Test
    void aChangeKafkaDidNotAcknowledgeIsDueOnlyOnceOlderThanOneRound() throws Exception {
        Instant publishedAt = round.start().minus(Duration.ofHours(1));
        String young = limit(2, 1, publishedAt, round.justChanged());
        String old = limit(2, 1, publishedAt, round.changedTwoRoundsBefore());

        assertThat(due()).contains(old).doesNotContain(young);
    }

    @Test
    void aLimitDueForARefreshIsDueOnlyOnceItsLastChangeIsOlderThanOneRound() throws Exception {
        Instant longAgo = refreshBefore().minus(Duration.ofHours(1));
        String young = limit(1, 1, longAgo, round.justChanged());
        String old = limit(1, 1, longAgo, round.changedTwoRoundsBefore());

        assertThat(due()).contains(old).doesNotContain(young);
    }

    /** A tenant's limit of 5 at {@code version}, of which Kafka acknowledged {@code published}, last changed then. */
    private String limit(long version, long published, Instant publishedAt, Instant changedAt) throws Exception {
        String tenant = Tenants.fresh("due");
        RepublishRound.update(INSERT, tenant, version, published, publishedAt, changedAt);
        tenants.add(tenant);
        return tenant;
    }

    /** The tenants whose limits the round publishes. */
    private List<String> due() throws Exception {
        List<TenantLimit> rows = RepublishRound.inSession(() -> limits.toRepublish(round.settledBefore(),
                refreshBefore(), 10_000));
        return rows.stream().map(row -> row.tenant).toList();
    }

    private Instant refreshBefore() {
        return round.start().minus(config.refreshAfter());
    }
}
