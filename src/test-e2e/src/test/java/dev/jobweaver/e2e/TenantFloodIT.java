package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.JobWeaverClient.Answer;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.TestConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One tenant flooding the API does not starve another: tenant {@code flood} (a submitter key, limited to
 * {@link TestConfig#FLOOD_PER_SECOND} jobs a second by the e2e platform's configuration) submits from several threads
 * as fast as it can for 5 s and gets 429 {@code API.RATE_LIMITED} with {@code Retry-After}; meanwhile tenant
 * {@code calm} submits 20 jobs at a steady pace over those 5 s, every one accepted and completed. Calm's time from
 * submission to the start of its run is printed ({@code [measure]}); the bound asserted is a generous 30 s.
 */
class TenantFloodIT {

    private static final Duration FLOOD = Duration.ofSeconds(5);
    private static final int FLOOD_THREADS = 4;
    private static final int CALM_JOBS = 20;
    private static final Duration CALM_PACE = Duration.ofMillis(250);
    private static final Duration START_BOUND = Duration.ofSeconds(30);

    private record Sent(Instant at, Answer answer) {
    }

    @Test
    void aFloodingTenantIsRateLimitedWhileACalmTenantIsServedInFull() throws Exception {
        E2ePlatform.awaitHealthy();
        JobWeaverClient admin = E2ePlatform.api();
        JobWeaverClient flood = admin.withKey(submitterKey(admin, "flood"));
        JobWeaverClient calm = admin.withKey(submitterKey(admin, "calm"));

        ConcurrentLinkedQueue<Answer> floodAnswers = new ConcurrentLinkedQueue<>();
        List<Sent> calmSent = new ArrayList<>();
        long floodStarted = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(FLOOD_THREADS + 1)) {
            for (int t = 0; t < FLOOD_THREADS; t++) {
                pool.submit(() -> {
                    long end = floodStarted + FLOOD.toNanos();
                    while (System.nanoTime() < end) {
                        floodAnswers.add(flood.submit(Jobs.noop()));
                    }
                });
            }
            Future<?> steady = pool.submit(() -> {
                for (int i = 0; i < CALM_JOBS; i++) {
                    Instant at = Instant.now();
                    calmSent.add(new Sent(at, calm.submit(Jobs.noop())));
                    E2ePlatform.awaitQuietly(CALM_PACE.toMillis());
                }
            });
            steady.get(2, TimeUnit.MINUTES);
            pool.shutdown();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).as("the flood's threads stop").isTrue();
        }
        double floodSeconds = (System.nanoTime() - floodStarted) / 1e9;

        // calm: every submission accepted, never throttled
        assertThat(calmSent).hasSize(CALM_JOBS);
        assertThat(calmSent).allSatisfy(sent -> assertThat(sent.answer().status())
                .as("calm's submission: " + sent.answer().rawBody()).isEqualTo(202));

        // flood: throttled with Retry-After, nothing but 202 and 429, and no more accepted than its bucket allows
        List<Answer> limited = floodAnswers.stream().filter(a -> a.status() == 429).toList();
        long accepted = floodAnswers.stream().filter(a -> a.status() == 202).count();
        assertThat(floodAnswers).as("flood's answers are 202 or 429 only")
                .allSatisfy(a -> assertThat(a.status()).as(a.rawBody()).isIn(202, 429));
        assertThat(limited).as("flood is rate limited").isNotEmpty();
        assertThat(limited).allSatisfy(a -> {
            assertThat(a.body().path("errorCode").asText()).isEqualTo("API.RATE_LIMITED");
            assertThat(a.header("Retry-After")).as("Retry-After").isNotBlank();
            assertThat(Long.parseLong(a.header("Retry-After").strip())).as("Retry-After in seconds")
                    .isPositive();
        });
        long allowed = TestConfig.FLOOD_PER_SECOND + (long) Math.ceil(TestConfig.FLOOD_PER_SECOND * (floodSeconds + 1));
        assertThat(accepted).as("flood's accepted jobs within its burst plus its rate over %.1f s", floodSeconds)
                .isPositive().isLessThanOrEqualTo(allowed);

        // calm's jobs all complete, each started soon after its submission
        List<UUID> calmIds = calmSent.stream().map(s -> s.answer().jobId()).toList();
        Map<UUID, JsonNode> done = calm.awaitAll(calmIds, JobWeaverClient::terminal, Duration.ofSeconds(90));
        assertThat(calmIds).allSatisfy(id -> {
            assertThat(done.get(id)).as("calm's job " + id + " read back").isNotNull();
            assertThat(done.get(id).path("status").asText()).as("calm's job " + id).isEqualTo("COMPLETED");
        });
        Map<UUID, Duration> toStart = new LinkedHashMap<>();
        for (Sent sent : calmSent) {
            Instant started = Executions.firstStart(sent.answer().jobId());
            assertThat(started).as("calm's job " + sent.answer().jobId() + " started").isNotNull();
            toStart.put(sent.answer().jobId(), Duration.between(sent.at(), started));
        }
        List<Long> millis = toStart.values().stream().map(Duration::toMillis).sorted().toList();
        System.out.printf("[measure] tenant flood: %d answers in %.1f s, %d accepted, %d rate limited; tenant calm: "
                        + "%d of %d accepted, submission to start p50 %d ms, p99 %d ms, max %d ms%n",
                floodAnswers.size(), floodSeconds, accepted, limited.size(), calmIds.size(), CALM_JOBS,
                percentile(millis, 50), percentile(millis, 99), millis.getLast());
        assertThat(toStart).allSatisfy((id, wait) -> assertThat(wait).as("calm's job " + id + " submission to start")
                .isLessThan(START_BOUND));
    }

    /** A new submitter key of {@code tenant}, made by the admin. */
    private static String submitterKey(JobWeaverClient admin, String tenant) {
        JsonNode created = admin.postExpecting("/api/tenants/" + tenant + "/api-keys",
                "{\"name\":\"e2e-" + tenant + "\",\"roles\":[\"submitter\"]}", 201);
        return created.path("key").asText();
    }

    /** The nearest-rank percentile of sorted values. */
    private static long percentile(List<Long> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
