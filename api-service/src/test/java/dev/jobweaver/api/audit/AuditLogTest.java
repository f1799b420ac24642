package dev.jobweaver.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A write that fails or hangs is counted and completes: the answer it holds goes out all the same. */
class AuditLogTest {

    static Stream<Arguments> writes() {
        return Stream.of(
                Arguments.of("a failed write is counted and not failed",
                        (Supplier<Uni<Void>>) () -> Uni.createFrom().failure(new IllegalStateException("down")),
                        Duration.ofSeconds(5), 1),
                Arguments.of("a hanging write is given up after the timeout",
                        (Supplier<Uni<Void>>) () -> Uni.createFrom().nothing(), Duration.ofMillis(100), 1),
                Arguments.of("a written entry counts nothing",
                        (Supplier<Uni<Void>>) () -> Uni.createFrom().voidItem(), Duration.ofSeconds(5), 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void aWriteCompletesAndOnlyAFailureIsCounted(String rule, Supplier<Uni<Void>> insert, Duration writeTimeout,
                                                 int failures) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AuditLog log = new AuditLog(repository(insert), config(writeTimeout), registry);
        log.record(entry()).await().atMost(Duration.ofSeconds(5));
        assertThat(registry.get("jobweaver.audit.write.failures").counter().count()).as(rule).isEqualTo(failures);
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
        return new Settings(Duration.ofDays(90), Duration.ofHours(1), 5000, writeTimeout);
    }

    /** The audit settings as given. */
    private record Settings(Duration retention, Duration cleanupInterval, int cleanupBatchSize, Duration writeTimeout)
            implements AuditConfig {
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
