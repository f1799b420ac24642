package dev.jobweaver.e2e.support;

import dev.jobweaver.local.Platform.Service;
import java.util.Map;

/**
 * The configuration the e2e platform runs with: production defaults, except where a scenario would otherwise wait
 * minutes (the retry backoff, the lease grace of a crashed worker's jobs and the sweep that finds them expired, the
 * worker's shutdown grace). The lease grace is 30 s (production 60 s), shorter than scenario 7's broker outage as a
 * slow machine sees it (a graceful stop of several seconds, 10 s down, a start and a rejoin of several more): the
 * scheduler expires no lease while its consumers of outcomes are out of contact, so a run that finished just before
 * the stop, its outcome waiting out the outage, is not declared lost. HTTP jobs may reach 127.0.0.1 only, where the
 * HTTP scenario's server listens.
 * A schedule's tick counts as missed after 3 s instead of a minute. Spans leave for the trace viewer every half second
 * instead of every 5 s, which the trace scenarios would otherwise wait out. Tenant {@code flood} may submit
 * {@link #FLOOD_PER_SECOND} jobs a second (the rate-limit scenario); every other tenant has the production default.
 * The retention purge runs every 2 s instead of every 15 s.
 */
public final class TestConfig {

    private TestConfig() {
    }

    /** The submission rate of tenant {@code flood}, and its burst. */
    public static final int FLOOD_PER_SECOND = 5;

    /** How often each service's batch span processor sends what it holds to the trace viewer. */
    private static final String SPAN_EXPORT_DELAY = "quarkus.otel.bsp.schedule.delay";

    static Map<Service, Map<String, String>> perService() {
        return Map.of(
                Service.API, Map.of(
                        "jobweaver.security.rate-limit.tenants.\"flood\".per-second",
                        Integer.toString(FLOOD_PER_SECOND),
                        "jobweaver.security.rate-limit.tenants.\"flood\".burst", Integer.toString(FLOOD_PER_SECOND),
                        SPAN_EXPORT_DELAY, "PT0.5S",
                        // the retention scenario waits for a purge round after its jobs' 10 s retention
                        "jobweaver.api.retention.purge-interval", "PT2S"),
                Service.SCHEDULER, Map.of(
                        SPAN_EXPORT_DELAY, "PT0.5S",
                        "jobweaver.scheduler.backoff.base", E2ePlatform.BACKOFF_BASE.toString(),
                        "jobweaver.scheduler.backoff.jitter", "0",
                        "jobweaver.scheduler.lease.grace", "PT30S",
                        "jobweaver.scheduler.lease.sweep-interval", "PT1S",
                        // a tick later than this is missed: the misfire scenario freezes the scheduler for 10 s
                        "jobweaver.scheduler.schedules.misfire-threshold", "PT3S"),
                Service.WORKER, Map.of(
                        SPAN_EXPORT_DELAY, "PT0.5S",
                        "jobweaver.worker.shutdown-grace-period", "PT10S",
                        // the production rule, which `up` relaxes for a laptop: the HTTP scenarios check that a
                        // private address is refused, and call a server of the test's own on loopback, allowed alone
                        "jobweaver.worker.http.allow-private", "false",
                        "jobweaver.worker.http.allowed-networks", "127.0.0.1/32"));
    }
}
