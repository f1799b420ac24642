package dev.jobweaver.scheduler.job.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.local.testing.LocalStackResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's pooled sessions plan every execution of a cached statement afresh ({@code plan_cache_mode}), so a
 * set-based write never keeps a plan made while its table was small (application.properties says why).
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_scheduler"))
class PlanCacheModeTest {

    @Inject
    Pool pool;

    @Test
    void everyPooledSessionPlansEachExecutionAfresh() {
        // Four sessions held at once, so the setting is seen on new connections, not only on the first one.
        List<Uni<String>> modes = IntStream.range(0, 4)
                .mapToObj(i -> pool.withConnection(c -> c.query("SELECT pg_sleep(0.2)").execute()
                        .chain(() -> c.query("SHOW plan_cache_mode").execute())
                        .map(rows -> rows.iterator().next().getString(0))))
                .toList();

        assertThat(Uni.join().all(modes).andFailFast().await().atMost(Duration.ofSeconds(30)))
                .hasSize(4).containsOnly("force_custom_plan");
    }
}
