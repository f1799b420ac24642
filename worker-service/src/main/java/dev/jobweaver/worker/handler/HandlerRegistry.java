package dev.jobweaver.worker.handler;

import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The worker's job handlers by {@link JobType}, collected from the CDI beans implementing {@link JobHandler}. Two
 * handlers for one type fail start-up; a type with none fails each of its runs with {@code WORKER.UNKNOWN_JOB_TYPE}.
 */
@ApplicationScoped
@Startup // a duplicate handler stops the worker before it takes a record
public class HandlerRegistry {

    private static final Logger LOG = Logger.getLogger(HandlerRegistry.class);

    private final Map<JobType, JobHandler<?>> byType = new EnumMap<>(JobType.class);

    /** A handler and the name start-up errors call it by. */
    public record Named(JobHandler<?> handler, String name) {
    }

    @Inject
    public HandlerRegistry(Instance<JobHandler<?>> handlers) {
        this(named(handlers));
    }

    /** A registry of exactly {@code handlers}; IllegalStateException naming both if two run one type. */
    public HandlerRegistry(List<Named> handlers) {
        Map<JobType, String> names = new EnumMap<>(JobType.class);
        for (Named named : handlers) {
            JobType type = named.handler().type();
            if (type == null) {
                throw new IllegalStateException("job handler " + named.name() + " names no job type");
            }
            String other = names.putIfAbsent(type, named.name());
            if (other != null) {
                throw new IllegalStateException("two job handlers for job type " + type + ": " + other + " and "
                        + named.name() + "; keep one");
            }
            byType.put(type, named.handler());
        }
        List<JobType> missing = new ArrayList<>(List.of(JobType.values()));
        missing.removeAll(byType.keySet());
        if (!missing.isEmpty()) {
            LOG.warnf("no job handler for %s: such jobs fail with WORKER.UNKNOWN_JOB_TYPE", missing);
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

    /** The types this worker can run. */
    public Set<JobType> types() {
        return Collections.unmodifiableSet(byType.keySet());
    }
}
