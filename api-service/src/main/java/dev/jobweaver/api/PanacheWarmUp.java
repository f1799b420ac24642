package dev.jobweaver.api;

import dev.jobweaver.api.deadletter.DeadLetter;
import dev.jobweaver.api.hook.Hook;
import dev.jobweaver.api.notification.Subscription;
import dev.jobweaver.api.security.ApiKey;
import dev.jobweaver.api.schedule.Schedule;
import dev.jobweaver.api.tenant.TenantLimit;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Runs one query of each Panache entity kind while the service starts, so that Hibernate's first query is not a
 * client's.
 *
 * <p>Why: Hibernate prepares its query language (the HQL parser, the entities' query plans) on first use, and Hibernate
 * Reactive does that on the event loop that runs the query. On the 2-core development machine under load the first
 * schedule or subscription request stalled its event loop for 2 to 4 s, and with it every submission that loop served.
 * At start-up the same work delays nothing (measured in the API README). A database that cannot answer yet does not
 * stop the start: the warm-up is logged and skipped, and the first request pays instead.
 */
@ApplicationScoped
public class PanacheWarmUp {

    private static final Logger LOG = Logger.getLogger(PanacheWarmUp.class);

    void warmUp(@Observes StartupEvent start) {
        long t0 = System.nanoTime();
        try {
            VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Schedule.count("tenant", "")
                    .chain(() -> Subscription.count("tenant", ""))
                    .chain(() -> Hook.count("tenant", ""))
                    .chain(() -> TenantLimit.count("tenant", ""))
                    .chain(() -> DeadLetter.count("tenant", ""))
                    .chain(() -> ApiKey.count("tenant", ""))));
            LOG.debugf("Panache warmed up in %d ms", (System.nanoTime() - t0) / 1_000_000);
        } catch (Throwable e) {
            LOG.warnf("Panache warm-up skipped (%s); the first schedule, subscription, hook, tenant limit, dead"
                    + " letter or API key request"
                    + " will prepare Hibernate's queries instead", e.toString());
        }
    }
}
