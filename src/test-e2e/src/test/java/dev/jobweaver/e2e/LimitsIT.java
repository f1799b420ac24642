package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Platform.Service;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A tenant's concurrency limit on the packaged services, with two scheduler replicas: the limited tenant's jobs never
 * run more than its limit at once, as the workers record them, and all complete; another tenant's jobs start within
 * 2 s meanwhile.
 */
@HealthyPlatform
class LimitsIT {

    private static final String LIMITED = "limited";
    private static final String OTHER = "other";
    private static final int LIMIT = 5;
    private static final int LIMITED_JOBS = 200;
    private static final int OTHER_JOBS = 20;
    private static final long SLEEP_MS = 200;

    @Test
    void aTenantNeverRunsMoreThanItsLimitAndHoldsBackNoOtherTenant() throws Exception {
        Platform platform = E2ePlatform.get();
        JobWeaverClient api = E2ePlatform.api();
        platform.addInstance(Service.SCHEDULER);
        try {
            JobWeaverClient.Answer set = api.put(limitPath(), "{\"maxRunning\":" + LIMIT + "}");
            assertThat(set.status()).as(set.rawBody()).isEqualTo(200);
            assertThat(set.body().get("maxRunning").asInt()).isEqualTo(LIMIT);
            // the limit travels through Kafka: submitting before the scheduler stored it would test nothing
            awaitSchedulerLimit(LIMIT, Duration.ofSeconds(30));

            Set<UUID> limited = ConcurrentHashMap.newKeySet();
            AtomicBoolean sampling = new AtomicBoolean(true);
            AtomicInteger maxSeen = new AtomicInteger();
            AtomicInteger samples = new AtomicInteger();
            List<Integer> overLimit = new ArrayList<>();
            Thread sampler = Thread.ofPlatform().name("in-flight-sampler").start(() -> {
                while (sampling.get()) {
                    if (!limited.isEmpty()) {
                        int running = Executions.inFlight(Set.copyOf(limited)).size();
                        samples.incrementAndGet();
                        maxSeen.accumulateAndGet(running, Math::max);
                        if (running > LIMIT) {
                            synchronized (overLimit) {
                                overLimit.add(running);
                            }
                        }
                    }
                    E2ePlatform.awaitQuietly(50);
                }
            });

            Instant burstStart = Instant.now();
            String limitedJob = Jobs.ofTenant(Jobs.sleeping(SLEEP_MS), LIMITED);
            Map<UUID, Instant> others = new LinkedHashMap<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
                List<Future<?>> submissions = new ArrayList<>();
                for (int i = 0; i < LIMITED_JOBS; i++) {
                    submissions.add(pool.submit(() -> limited.add(api.submitAccepted(limitedJob))));
                }
                for (Future<?> submission : submissions) {
                    submission.get();
                }
            }
            Duration submitting = Duration.between(burstStart, Instant.now());
            // The other tenant's jobs go in while the limited tenant, at its limit, has its backlog waiting: one every
            // 250 ms over 5 s, of the 8 s the backlog takes at least. After the burst's submissions, not during them:
            // what is measured is the limit's effect, not that of 200 submissions on the machine's two cores.
            String otherJob = Jobs.ofTenant(Jobs.noop(), OTHER);
            for (int i = 0; i < OTHER_JOBS; i++) {
                E2ePlatform.awaitQuietly(250);
                Instant submitted = Instant.now();
                others.put(api.submitAccepted(otherJob), submitted);
            }
            // else the other tenant's jobs were not competing with a saturated tenant at all
            long waiting = Executions.perJob(limited).values().stream().filter(n -> n == 0).count();
            assertThat(waiting).as("jobs of tenant %s not yet started when the last job of tenant %s was submitted",
                    LIMITED, OTHER).isPositive();
            Map<UUID, JsonNode> limitedDone = api.awaitAll(limited, JobWeaverClient::terminal, Duration.ofSeconds(240));
            Instant burstEnd = Instant.now();
            sampling.set(false);
            sampler.join();
            Map<UUID, JsonNode> otherDone = api.awaitAll(others.keySet(), JobWeaverClient::terminal,
                    Duration.ofSeconds(30));

            assertThat(overLimit).as("samples of the limited tenant's in-flight jobs above its limit of " + LIMIT)
                    .isEmpty();
            assertThat(maxSeen.get()).as("the limited tenant's jobs were seen running").isPositive();
            assertThat(limited).hasSize(LIMITED_JOBS);
            assertThat(limitedDone.values()).hasSize(LIMITED_JOBS)
                    .allSatisfy(j -> assertThat(j.get("status").asText()).isEqualTo("COMPLETED"));
            assertThat(otherDone.values()).hasSize(OTHER_JOBS)
                    .allSatisfy(j -> assertThat(j.get("status").asText()).isEqualTo("COMPLETED"));
            List<Long> startDelays = new ArrayList<>();
            for (Map.Entry<UUID, Instant> other : others.entrySet()) {
                Instant started = Executions.firstStart(other.getKey());
                assertThat(started).as("job %s of tenant %s started", other.getKey(), OTHER).isNotNull();
                startDelays.add(Duration.between(other.getValue(), started).toMillis());
            }
            assertThat(startDelays).as("submission to start of each job of tenant %s in submission order, ms", OTHER)
                    .allSatisfy(delay -> assertThat(delay).isLessThan(2_000));
            startDelays.sort(null);

            JobWeaverClient.Answer removed = api.deletePath(limitPath());
            assertThat(removed.status()).as(removed.rawBody()).isEqualTo(204);
            assertThat(api.get(limitPath()).status()).isEqualTo(404);
            awaitSchedulerLimit(null, Duration.ofSeconds(30));

            System.out.printf("[measure] limits: tenant limit %d with 2 schedulers, %d jobs of %d ms: at most %d"
                            + " in flight in %d samples every 50 ms, submitted in %.1f s, all completed in %.1f s (%.1f s"
                            + " at the limit); %d jobs of another tenant meanwhile: submission to start p50 %d ms,"
                            + " max %d ms (%d of the limited jobs still waiting after the last)%n",
                    LIMIT, LIMITED_JOBS, SLEEP_MS, maxSeen.get(), samples.get(), submitting.toMillis() / 1000.0,
                    Duration.between(burstStart, burstEnd).toMillis() / 1000.0,
                    LIMITED_JOBS * SLEEP_MS / (double) LIMIT / 1000.0, OTHER_JOBS,
                    startDelays.get(startDelays.size() / 2), startDelays.getLast(), waiting);
        } finally {
            api.deletePath(limitPath());
            E2ePlatform.awaitHealthy();
            platform.removeInstance(Service.SCHEDULER);
        }
    }

    private static String limitPath() {
        return "/api/tenants/" + LIMITED + "/limits";
    }

    /** Waits until the schedulers' database holds {@code maxRunning} for the limited tenant (null: no limit). */
    private static void awaitSchedulerLimit(Integer maxRunning, Duration timeout) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Integer stored = null;
        while (System.nanoTime() < deadline) {
            try (Connection db = E2ePlatform.database("jobweaver_scheduler");
                 PreparedStatement query = db.prepareStatement(
                         "SELECT max_running FROM tenant_limits WHERE tenant = ?")) {
                query.setString(1, LIMITED);
                try (ResultSet rows = query.executeQuery()) {
                    stored = rows.next() ? (Integer) rows.getObject(1) : null;
                }
            }
            if (java.util.Objects.equals(stored, maxRunning)) {
                return;
            }
            E2ePlatform.awaitQuietly(100);
        }
        throw new AssertionError("the scheduler holds limit " + stored + " for tenant " + LIMITED + ", expected "
                + maxRunning + " within " + timeout);
    }
}
