package dev.jobweaver.api.audit;

import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.metrics.Counters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Writes and reads the audit log. A write that fails (or outlasts {@code jobweaver.audit.write-timeout}) is logged and
 * counted in {@code jobweaver_audit_write_failures_total}, never failed to the caller: the action it records already
 * happened, and refusing its answer would only hide that from the client.
 */
@Startup // its failure counter is exported from the start, at 0, for the alert on it
@ApplicationScoped
public class AuditLog {

    private static final Logger LOG = Logger.getLogger(AuditLog.class);

    private final AuditRepository repository;
    private final Duration writeTimeout;
    private final Counter writeFailures;

    public AuditLog(AuditRepository repository, AuditConfig config, MeterRegistry registry) {
        this.repository = repository;
        this.writeTimeout = config.writeTimeout();
        this.writeFailures = Counters.of(registry, "jobweaver.audit.write.failures",
                "Audit entries that could not be written (the action was answered all the same)");
    }

    /** Writes {@code entry}; completes (never fails) once it is written or its write failed. */
    public Uni<Void> record(AuditEntry entry) {
        return Uni.createFrom().deferred(() -> repository.insert(entry))
                .ifNoItem().after(writeTimeout).fail()
                .onFailure().recoverWithUni(e -> {
                    writeFailures.increment();
                    LOG.errorf("audit entry not written (%s %s by %s, status %d, traceId %s): %s", entry.method,
                            entry.path, entry.actor, entry.status, entry.traceId, e.toString());
                    return Uni.createFrom().voidItem();
                });
    }

    /** A page of entries, newest first. */
    @WithSpan("list audit entries")
    public Uni<Slice<AuditEntry>> list(AuditRepository.Filter filter, int page, int size) {
        return Panache.withSession(() -> Slice.read(repository.page(filter, page, size), () -> repository.count(filter),
                entry -> entry));
    }
}
