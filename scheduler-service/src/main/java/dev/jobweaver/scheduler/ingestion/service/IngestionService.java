package dev.jobweaver.scheduler.ingestion.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.scheduler.dispatch.service.Dispatcher;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Stores accepted jobs as {@code PENDING} executions, once each, and wakes the dispatcher.
 *
 * <p>Idempotent: {@code INSERT ... ON CONFLICT (job_id) DO NOTHING}, so a redelivered {@code JobCreatedEvent}
 * changes nothing, whatever state the job has reached since. The caller acknowledges the record only after the
 * returned {@link Uni} completed, that is after the row was committed.
 */
@ApplicationScoped
public class IngestionService {

    private static final Logger LOG = Logger.getLogger(IngestionService.class);

    private final JobExecutionRepository repository;
    private final Dispatcher dispatcher;
    private final JobTracing tracing;
    private final SchedulerMetrics metrics;
    private final ObjectMapper mapper;

    public IngestionService(JobExecutionRepository repository, Dispatcher dispatcher, JobTracing tracing,
                            SchedulerMetrics metrics, ObjectMapper mapper) {
        this.repository = repository;
        this.dispatcher = dispatcher;
        this.tracing = tracing;
        this.metrics = metrics;
        this.mapper = mapper;
    }

    /**
     * Stores {@code event}'s job if it is new; true if it was.
     *
     * @param parent the trace context of the consumed record (the API's publish span), or null
     */
    public Uni<Boolean> ingest(JobCreatedEvent event, Context parent) {
        return Uni.createFrom().deferred(() -> {
            Span span = tracing.start("scheduler ingest", parent != null ? parent : Context.root(), event.jobId(), 0);
            // The trace the API told the client about; the span's own trace if the event did not say.
            String traceId = event.traceId() != null && !event.traceId().isBlank()
                    ? event.traceId() : JobTracing.traceId(span);
            Instant createdAt = event.createdAt() != null ? event.createdAt() : Instant.now();
            Uni<Boolean> insert = repository.insertIfAbsent(event.jobId(), event.jobType().name(), traceId,
                            JobTracing.traceparent(span), instruction(event), event.maxRetries(), createdAt)
                    .invoke(inserted -> {
                        if (inserted) {
                            metrics.ingested();
                            JobLog.info(LOG, event.jobId(), traceId, "job ingested PENDING (maxRetries=%d, %d steps)",
                                    event.maxRetries(), event.payload().steps().size());
                            dispatcher.wake();
                        } else {
                            metrics.duplicateIngestion();
                            JobLog.info(LOG, event.jobId(), traceId, "job already known: redelivered event ignored");
                        }
                    });
            return JobTracing.endWith(span, insert);
        });
    }

    private String instruction(JobCreatedEvent event) {
        try {
            return mapper.writeValueAsString(event.payload());
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
