package dev.jobweaver.worker.handler;

import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.sdk.HandlerDefaults;
import dev.jobweaver.sdk.JobHandler;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The worker's job handlers by {@link JobType}, collected from the CDI beans implementing {@link JobHandler}: the
 * types this worker declares. A type name that is not a job type's, or two handlers for one type, fail start-up.
 */
@ApplicationScoped
@Startup // a duplicate handler stops the worker before it takes a record
public class HandlerRegistry {

    private final Map<JobType, JobHandler<?>> byType = new HashMap<>();
    private final SortedSet<JobType> types = new TreeSet<>(Comparator.comparing(JobType::name));

    /** A handler and the name start-up errors call it by. */
    public record Named(JobHandler<?> handler, String name) {
    }

    @Inject
    public HandlerRegistry(Instance<JobHandler<?>> handlers) {
        this(named(handlers));
    }

    /** A registry of exactly {@code handlers}; IllegalStateException naming both if two run one type. */
    public HandlerRegistry(List<Named> handlers) {
        Map<JobType, String> names = new HashMap<>();
        for (Named named : handlers) {
            String name = named.handler().type();
            if (name == null) {
                throw new IllegalStateException("job handler " + named.name() + " names no job type");
            }
            if (!JobType.isValid(name)) {
                throw new IllegalStateException("job handler " + named.name() + ": " + JobType.problem(name));
            }
            JobType type = JobType.of(name);
            String other = names.putIfAbsent(type, named.name());
            if (other != null) {
                throw new IllegalStateException("two job handlers for job type " + type + ": " + other + " and "
                        + named.name() + "; keep one");
            }
            byType.put(type, named.handler());
            types.add(type);
        }
    }

    private static List<Named> named(Instance<JobHandler<?>> handlers) {
        List<Named> named = new ArrayList<>();
        for (Instance.Handle<JobHandler<?>> handle : handlers.handles()) {
            named.add(new Named(handle.get(), handle.getBean().getBeanClass().getName()));
        }
        return named;
    }

    /** The handler of {@code type}, or null if this worker has none. */
    public JobHandler<?> handler(JobType type) {
        return type == null ? null : byType.get(type);
    }

    /**
     * The defaults each type's handler declares, for the types that declare any: what the worker announces, in the form
     * of a job's own fields.
     */
    public Map<String, WorkerHeartbeatEvent.TypeDefaults> declaredDefaults() {
        Map<String, WorkerHeartbeatEvent.TypeDefaults> declared = new TreeMap<>();
        byType.forEach((type, handler) -> {
            HandlerDefaults d = handler.defaults();
            if (d != null && d.any()) {
                declared.put(type.name(), new WorkerHeartbeatEvent.TypeDefaults(
                        d.timeout() == null ? null : d.timeout().toMillis(),
                        d.retryDelays() == null ? null : d.retryDelays().stream().map(Duration::toMillis).toList(),
                        d.priority() == null ? null : Priority.valueOf(d.priority().name())));
            }
        });
        return Map.copyOf(declared);
    }

    /** The types this worker can run, by name. */
    public Set<JobType> types() {
        return Collections.unmodifiableSortedSet(types);
    }
}
