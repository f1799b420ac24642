package dev.jobweaver.scheduler.ingestion.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.scheduler.dispatch.service.Dispatcher;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository;
import dev.jobweaver.scheduler.job.persistence.JobExecutionRepository.NewJob;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Stores accepted jobs as {@code PENDING} executions, once each, and wakes the dispatcher.
 *
 * <p>Idempotent: {@code INSERT ... ON CONFLICT (job_id) DO NOTHING}, so a redelivered {@code JobCreatedEvent}
 * changes nothing, whatever state the job has reached since. The events of one poll are stored in one transaction;
 * the caller acknowledges their records only after the returned {@link Uni} completed, that is after the commit.
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
     * An accepted job and the trace context of its record.
     *
     * @param parent the trace context of the consumed record (the API's publish), or null
     */
    public record Accepted(JobCreatedEvent event, Context parent) {
    }

    /** Stores the jobs that are new; the ids of those that were. */
    public Uni<Set<UUID>> ingest(List<Accepted> accepted) {
        return Uni.createFrom().deferred(() -> {
            // A job twice in one poll (a redelivery right behind the original) is stored from its first event.
            Map<UUID, Accepted> byJob = new LinkedHashMap<>();
            accepted.forEach(a -> byJob.putIfAbsent(a.event().jobId(), a));
            List<Span> spans = new ArrayList<>(byJob.size());
            List<NewJob> rows = new ArrayList<>(byJob.size());
            for (Accepted a : byJob.values()) {
                JobCreatedEvent event = a.event();
                Span span = tracing.start("scheduler ingest", a.parent() != null ? a.parent() : Context.root(),
                        event.jobId(), 0);
                spans.add(span);
                // The trace the API told the client about; the span's own trace if the event did not say.
                String traceId = event.traceId() != null && !event.traceId().isBlank()
                        ? event.traceId() : JobTracing.traceId(span);
                rows.add(new NewJob(event.jobId(), event.jobType().name(), traceId, JobTracing.traceparent(span),
                        instruction(event), event.maxRetries(),
                        event.createdAt() != null ? event.createdAt() : Instant.now()));
            }
            return repository.insertIfAbsent(rows)
                    .onItemOrFailure().invoke((inserted, failure) -> spans.forEach(s -> JobTracing.end(s, failure)))
                    .invoke(inserted -> afterCommit(rows, inserted));
        });
    }

    private void afterCommit(List<NewJob> rows, Set<UUID> inserted) {
        for (NewJob row : rows) {
            if (inserted.contains(row.jobId())) {
                metrics.ingested();
                JobLog.debug(LOG, row.jobId(), row.traceId(), "job ingested PENDING (maxRetries=%d)", row.maxRetries());
            } else {
                metrics.duplicateIngestion();
                JobLog.info(LOG, row.jobId(), row.traceId(), "job already known: redelivered event ignored");
            }
        }
        if (!inserted.isEmpty()) {
            dispatcher.wake();
        }
    }

    private String instruction(JobCreatedEvent event) {
        try {
            return mapper.writeValueAsString(event.payload());
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
