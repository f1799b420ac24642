package dev.jobweaver.scheduler.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code tenant-limits} into {@code tenant_limits}: each tenant's newest version is stored, an older one changes
 * nothing, a removed limit is kept as a row without one, and records that are no usable limit are quarantined while
 * the good record behind them on the same partition is applied.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class TenantLimitConsumerTest extends KafkaAndDbTest {

    private final List<String> tenants = new ArrayList<>();

    @AfterEach
    void deleteTheLimits() {
        tenants.forEach(t -> db.update("DELETE FROM tenant_limits WHERE tenant = $1", t));
    }

    @Test
    void theNewestVersionWinsAndARemovedLimitKeepsItsVersion() {
        String tenant = tenant();
        send(tenant, 2, 7);
        awaitVersion(tenant, 2);
        send(tenant, 1, 3);
        send(tenant, 3, null);

        awaitVersion(tenant, 3);
        Row row = row(tenant);
        assertThat(row.getInteger("max_running")).isNull();

        // A stale version behind a newer one changes nothing; the marker, on the same partition, is applied after it.
        String other = tenant();
        send(other, 5, 9);
        send(other, 4, 1);
        String marker = tenant();
        send(marker, 1, 1);
        awaitVersion(marker, 1);
        assertThat(row(other).getInteger("max_running")).isEqualTo(9);
        assertThat(row(other).getLong("version")).isEqualTo(5);
    }

    @Test
    void badRecordsAreQuarantinedAndTheGoodOneBehindThemIsApplied() {
        String good = tenant();
        String bad = tenant();
        long zero = producer.sendRaw(Topics.TENANT_LIMITS, 0, bad,
                jsonBytes(new TenantLimitEvent(bad, 1, 0, Instant.now())));
        long otherKey = producer.sendRaw(Topics.TENANT_LIMITS, 0, "someone-else",
                jsonBytes(new TenantLimitEvent(bad, 1, 5, Instant.now())));
        long tombstone = producer.sendRaw(Topics.TENANT_LIMITS, 0, bad, null);
        producer.sendRaw(Topics.TENANT_LIMITS, 0, good, jsonBytes(new TenantLimitEvent(good, 1, 4, Instant.now())));

        awaitVersion(good, 1);

        assertThat(find(bad)).isNull();
        Map<Position, ConsumerRecord<String, byte[]>> copies = PoisonRecords.awaitQuarantined(bootstrapServers,
                List.of(at(zero), at(otherKey), at(tombstone)));
        assertThat(QuarantineTopic.header(copies.get(at(zero)), QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.INVALID.name());
        assertThat(QuarantineTopic.header(copies.get(at(zero)), QuarantineHeaders.DETAIL)).contains("maxRunning");
        assertThat(QuarantineTopic.header(copies.get(at(otherKey)), QuarantineHeaders.DETAIL))
                .contains("must be its tenant");
        assertThat(QuarantineTopic.header(copies.get(at(tombstone)), QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.INVALID.name());
    }

    private String tenant() {
        String tenant = "tl-" + UUID.randomUUID().toString().substring(0, 8);
        tenants.add(tenant);
        return tenant;
    }

    /** All on partition 0, so that a later record is applied after the earlier ones. */
    private void send(String tenant, long version, Integer maxRunning) {
        producer.sendRaw(Topics.TENANT_LIMITS, 0, tenant, jsonBytes(new TenantLimitEvent(tenant, version, maxRunning,
                Instant.now())));
    }

    private void awaitVersion(String tenant, long version) {
        await().atMost(TIMEOUT).until(() -> {
            Row row = find(tenant);
            return row != null && row.getLong("version") == version;
        });
    }

    private Row row(String tenant) {
        Row row = find(tenant);
        assertThat(row).as("limit of " + tenant).isNotNull();
        return row;
    }

    private Row find(String tenant) {
        var rows = pool.preparedQuery("SELECT max_running, version FROM tenant_limits WHERE tenant = $1")
                .execute(Tuple.of(tenant)).await().atMost(TIMEOUT);
        return rows.iterator().hasNext() ? rows.iterator().next() : null;
    }

    private static Position at(long offset) {
        return new Position(Topics.TENANT_LIMITS, 0, offset);
    }
}
