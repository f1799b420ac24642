package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A process whose RSS and CPU the bench samples.
 *
 * @param name how tables call it ({@code api-service}, {@code kafka}, {@code postgres}, {@code bench})
 * @param pid its process id
 * @param withDescendants whether its child processes count too (PostgreSQL: one process per connection)
 */
public record SampledProcess(String name, long pid, boolean withDescendants) {

    /** Its own pid first, then, when it counts them, the descendants {@code descendants} finds for it. */
    List<Long> pids(LongFunction<List<Long>> descendants) {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        if (withDescendants) {
            pids.addAll(descendants.apply(pid));
        }
        return pids;
    }
}
