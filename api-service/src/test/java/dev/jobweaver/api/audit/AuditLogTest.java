package dev.jobweaver.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A write that fails or hangs is counted and completes: the answer it holds goes out all the same. */
class AuditLogTest {

    @Test
    void aFailedWriteIsCountedAndNotFailed() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AuditLog log = new AuditLog(repository(() -> Uni.createFrom().failure(new IllegalStateException("down"))),
                config(Duration.ofSeconds(5)), registry);
        log.record(entry()).await().atMost(Duration.ofSeconds(5));
        assertThat(registry.get("jobweaver.audit.write.failures").counter().count()).isEqualTo(1);
    }

    @Test
    void aHangingWriteIsGivenUpAfterTheTimeout() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AuditLog log = new AuditLog(repository(() -> Uni.createFrom().nothing()), config(Duration.ofMillis(100)),
                registry);
        log.record(entry()).await().atMost(Duration.ofSeconds(5));
        assertThat(registry.get("jobweaver.audit.write.failures").counter().count()).isEqualTo(1);
    }

    @Test
    void aWrittenEntryCountsNothing() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AuditLog log = new AuditLog(repository(() -> Uni.createFrom().voidItem()), config(Duration.ofSeconds(5)),
                registry);
        log.record(entry()).await().atMost(Duration.ofSeconds(5));
        assertThat(registry.get("jobweaver.audit.write.failures").counter().count()).isZero();
    }

    private static AuditRepository repository(Supplier<Uni<Void>> insert) {
        return new AuditRepository(null) {
            @Override
            public Uni<Void> insert(AuditEntry entry) {
                return insert.get();
            }
        };
    }

    private static AuditConfig config(Duration writeTimeout) {
        return new AuditConfig() {
            @Override
            public Duration retention() {
                return Duration.ofDays(90);
            }

            @Override
            public Duration cleanupInterval() {
                return Duration.ofHours(1);
            }

            @Override
            public int cleanupBatchSize() {
                return 5000;
            }

            @Override
            public Duration writeTimeout() {
                return writeTimeout;
            }
        };
    }

    private static AuditEntry entry() {
        AuditEntry entry = new AuditEntry();
        entry.id = UUID.randomUUID();
        entry.at = Instant.now();
        entry.actor = "someone";
        entry.method = "DELETE";
        entry.path = "/api/x/{id}";
        entry.status = 204;
        return entry;
    }
}
