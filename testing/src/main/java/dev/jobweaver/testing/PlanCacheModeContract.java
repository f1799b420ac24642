package dev.jobweaver.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.inject.spi.CDI;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A service's pooled sessions plan every execution of a cached statement afresh ({@code plan_cache_mode}), so a
 * set-based write never keeps a plan made while its table was small (each service's application.properties says
 * why).
 *
 * <p>Each service runs it with a subclass that carries {@code @QuarkusTest} and {@link JobWeaverTest}.
 */
public abstract class PlanCacheModeContract {

    /** The service's connection pool: its one {@link Pool} bean, looked up when the test runs. */
    protected Pool pool() {
        return CDI.current().select(Pool.class).get();
    }

    @Test
    public void everyPooledSessionPlansEachExecutionAfresh() {
        // Four sessions held at once, so the setting is seen on new connections, not only on the first one.
        List<Uni<String>> modes = IntStream.range(0, 4)
                .mapToObj(i -> pool().withConnection(c -> c.query("SELECT pg_sleep(0.2)").execute()
                        .chain(() -> c.query("SHOW plan_cache_mode").execute())
                        .map(rows -> rows.iterator().next().getString(0))))
                .toList();

        assertThat(Uni.join().all(modes).andFailFast().await().atMost(Duration.ofSeconds(30)))
                .hasSize(4).containsOnly("force_custom_plan");
    }
}
