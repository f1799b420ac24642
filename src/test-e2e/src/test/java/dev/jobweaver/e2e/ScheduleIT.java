package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.NativeScenario;
import dev.jobweaver.e2e.support.ScheduledJobs;
import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.ServiceProcess;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Recurring schedules on the packaged services: every tick makes exactly one job across two scheduler replicas and
 * kills at the moment of a tick; after a scheduler's downtime, {@code FIRE_ONCE} makes one catch-up job and
 * {@code SKIP} none.
 */
@HealthyPlatform
class ScheduleIT {

    private static final String NOOP_JOB = "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
            + "\"message\":\"tick\"}]},\"maxRetryCount\":0}";

    /** The short proof that a schedule's tick fires a job, for the native lane (the scenario below takes ~18 ticks). */
    @Test
    @NativeScenario
    void aTickOfAOneSecondScheduleFiresAJob() {
        JobWeaverClient api = E2ePlatform.api();
        JsonNode created = api.postExpecting("/api/schedules", "{\"name\":\"one-tick\",\"interval\":\"PT1S\","
                + "\"job\":" + NOOP_JOB + "}", 201);
        UUID id = UUID.fromString(created.get("id").asText());
        try {
            Instant first = Instant.parse(created.get("nextRunAt").asText());
            awaitTick(id, first, Duration.ofSeconds(30));
            assertThat(ScheduledJobs.of(id)).as("jobs of schedule %s after its first tick, %s", id, first)
                    .anyMatch(job -> !job.scheduledFor().isBefore(first));
        } finally {
            api.deletePath("/api/schedules/" + id);
        }
    }

    @Test
    void everyTickOfAOneSecondScheduleMakesExactlyOneJobAcrossTwoSchedulersAndKillsAtATick() {
        Platform platform = E2ePlatform.get();
        JobWeaverClient api = E2ePlatform.api();
        ServiceProcess second = platform.addInstance(Service.SCHEDULER);
        UUID id = null;
        try {
            JsonNode created = api.postExpecting("/api/schedules", "{\"name\":\"exactly-once\",\"interval\":\"PT1S\","
                    + "\"job\":" + NOOP_JOB + "}", 201);
            id = UUID.fromString(created.get("id").asText());
            Instant first = Instant.parse(created.get("nextRunAt").asText());

            // Each replica is killed (SIGKILL) at the moment of a tick, the second once the first is back from the
            // supervisor's restart: one replica is always up to fire the ticks, and each kill lands on a tick.
            sleepUntil(first.plusSeconds(5));
            killAndAwaitRestart(platform.instances(Service.SCHEDULER).getFirst());
            sleepUntil(nextTick(first));
            killAndAwaitRestart(second);
            // Five more ticks with both replicas back; a tick that reaches the API after the pause is dropped by
            // design: pause once the last of them is in.
            Instant last = nextTick(first).plusSeconds(4);
            sleepUntil(last);
            awaitTick(id, last, Duration.ofSeconds(30));
            api.postExpecting("/api/schedules/" + id + "/pause", null, 200);
            Instant pausedAt = Instant.now();

            List<ScheduledJobs.Row> jobs = awaitSettled(id, Duration.ofSeconds(90));
            Map<Instant, Long> perTick = jobs.stream().collect(Collectors.groupingBy(ScheduledJobs.Row::scheduledFor,
                    Collectors.counting()));
            assertThat(perTick.values()).as("jobs per tick").containsOnly(1L);
            List<Instant> ticks = jobs.stream().map(ScheduledJobs.Row::scheduledFor).toList();
            assertThat(ticks.getFirst()).isEqualTo(first);
            assertThat(ticks.getLast()).isAfterOrEqualTo(last).isBefore(pausedAt.plusSeconds(1));
            for (int i = 0; i < ticks.size(); i++) {
                assertThat(ticks.get(i)).as("tick %d", i).isEqualTo(first.plusSeconds(i));
            }
            assertThat(jobs).allSatisfy(j -> assertThat(j.status()).isEqualTo("COMPLETED"));
            assertThat(Executions.perJob(jobs.stream().map(ScheduledJobs.Row::jobId).toList()).values())
                    .containsOnly(1);
            double[] lags = jobs.stream().mapToDouble(ScheduledJobs.Row::lagMs).sorted().toArray();
            System.out.printf("[measure] schedules: a PT1S schedule over %d s with 2 schedulers, each SIGKILLed at a"
                            + " tick: %d ticks, %d jobs, each once; tick to job stored in the API p50 %.0f ms, p99 %.0f"
                            + " ms, max %.0f ms%n", ticks.size(), ticks.size(), jobs.size(), lags[lags.length / 2],
                    lags[(int) Math.ceil(lags.length * 0.99) - 1], lags[lags.length - 1]);
        } finally {
            if (id != null) {
                api.deletePath("/api/schedules/" + id);
            }
            E2ePlatform.awaitHealthy();
            platform.removeInstance(Service.SCHEDULER);
        }
    }

    @Test
    void afterDowntimeFireOnceMakesOneCatchUpJobAndSkipNone() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        UUID fireOnce = create(api, "catch-up", "FIRE_ONCE");
        UUID skip = create(api, "skip", "SKIP");
        try {
            // Both have fired before the freeze, so each has ticks on either side of its gap.
            awaitJobs(fireOnce, 2, Duration.ofSeconds(30));
            awaitJobs(skip, 2, Duration.ofSeconds(30));
            // Downtime without a restart: the scheduler is frozen (SIGSTOP) for 10 s, over three times the e2e
            // misfire threshold (3 s), then goes on (SIGCONT) and finds its ticks late.
            ServiceProcess scheduler = E2ePlatform.get().instances(Service.SCHEDULER).getFirst();
            signal(scheduler, "STOP");
            try {
                E2ePlatform.awaitQuietly(10_000);
            } finally {
                signal(scheduler, "CONT");
            }
            // Both go on after the freeze: wait for two ticks past the thaw before pausing them.
            Instant thawed = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            awaitTick(fireOnce, thawed.plusSeconds(2), Duration.ofSeconds(30));
            awaitTick(skip, thawed.plusSeconds(2), Duration.ofSeconds(30));
            api.postExpecting("/api/schedules/" + fireOnce + "/pause", null, 200);
            api.postExpecting("/api/schedules/" + skip + "/pause", null, 200);

            List<Instant> once = ticks(awaitSettled(fireOnce, Duration.ofSeconds(60)));
            List<Instant> skipped = ticks(awaitSettled(skip, Duration.ofSeconds(60)));
            Gap onceGap = onlyGap(once);
            Gap skipGap = onlyGap(skipped);
            // Both schedules tick on every second and are fired in the same rounds: before the freeze they end on the
            // same tick; after it, SKIP goes on from the first tick within the threshold, FIRE_ONCE one tick earlier,
            // with its catch-up job for the latest missed tick.
            assertThat(onceGap.lastBefore()).isEqualTo(skipGap.lastBefore());
            assertThat(skipGap.missing()).as("ticks SKIP left out").isGreaterThanOrEqualTo(4);
            assertThat(onceGap.firstAfter()).isEqualTo(skipGap.firstAfter().minusSeconds(1));
            assertThat(onceGap.missing()).isEqualTo(skipGap.missing() - 1);
            System.out.printf("[measure] schedules: scheduler frozen 10 s (misfire threshold 3 s): SKIP left out %d"
                    + " ticks, FIRE_ONCE %d and made one catch-up job for %s%n", skipGap.missing(), onceGap.missing(),
                    onceGap.firstAfter());
        } finally {
            api.deletePath("/api/schedules/" + fireOnce);
            api.deletePath("/api/schedules/" + skip);
        }
    }

    /** A run of missing ticks: the tick before it, the tick after it, and how many ticks it lacks. */
    private record Gap(Instant lastBefore, Instant firstAfter, long missing) {
    }

    /** The only run of missing ticks of a one-second schedule's {@code ticks}; fails if there is none or several. */
    private static Gap onlyGap(List<Instant> ticks) {
        List<Gap> gaps = new ArrayList<>();
        for (int i = 1; i < ticks.size(); i++) {
            long seconds = Duration.between(ticks.get(i - 1), ticks.get(i)).toSeconds();
            if (seconds > 1) {
                gaps.add(new Gap(ticks.get(i - 1), ticks.get(i), seconds - 1));
            }
        }
        assertThat(gaps).as("runs of missing ticks in %s", ticks).hasSize(1);
        return gaps.getFirst();
    }

    private static UUID create(JobWeaverClient api, String name, String misfire) {
        JsonNode created = api.postExpecting("/api/schedules", "{\"name\":\"" + name + "\",\"cron\":\"* * * * * *\","
                + "\"misfire\":\"" + misfire + "\",\"job\":" + NOOP_JOB + "}", 201);
        return UUID.fromString(created.get("id").asText());
    }

    private static List<Instant> ticks(List<ScheduledJobs.Row> jobs) {
        return jobs.stream().map(ScheduledJobs.Row::scheduledFor).toList();
    }

    /** The schedule's jobs once their number has not changed for 3 s and every one has finished. */
    private static List<ScheduledJobs.Row> awaitSettled(UUID scheduleId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ScheduledJobs.Row> last = List.of();
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            List<ScheduledJobs.Row> now = ScheduledJobs.of(scheduleId);
            if (now.size() != last.size()) {
                stableSince = System.nanoTime();
            }
            last = now;
            boolean finished = now.stream().allMatch(j -> JobWeaverClient.terminalStatus(j.status()));
            if (finished && System.nanoTime() - stableSince > Duration.ofSeconds(3).toNanos()) {
                return now;
            }
            E2ePlatform.awaitQuietly(500);
        }
        return last;
    }

    /** Waits until the API holds the schedule's job for the tick {@code tick}, or the timeout passes. */
    private static void awaitTick(UUID scheduleId, Instant tick, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline
                && ScheduledJobs.of(scheduleId).stream().noneMatch(j -> !j.scheduledFor().isBefore(tick))) {
            E2ePlatform.awaitQuietly(200);
        }
    }

    /** Waits until the API holds at least {@code count} jobs of the schedule, or the timeout passes. */
    private static void awaitJobs(UUID scheduleId, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && ScheduledJobs.of(scheduleId).size() < count) {
            E2ePlatform.awaitQuietly(200);
        }
    }

    /** The first tick of a one-second schedule starting at {@code first} that is at least a second away. */
    private static Instant nextTick(Instant first) {
        return first.plusSeconds(Duration.between(first, Instant.now()).toSeconds() + 2);
    }

    /**
     * SIGKILLs {@code replica} and waits until the supervisor has started it again and it is ready.
     *
     * @throws IllegalStateException if it is not back within two minutes
     */
    private static void killAndAwaitRestart(ServiceProcess replica) {
        Process killed = replica.process();
        replica.kill();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (replica.process() == killed || !replica.isAlive()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(replica.spec().name() + " not restarted within 120 s of its kill");
            }
            E2ePlatform.awaitQuietly(100);
        }
        replica.awaitReady(Duration.ofSeconds(120));
    }

    private static void sleepUntil(Instant when) {
        long millis = Duration.between(Instant.now(), when).toMillis();
        if (millis > 0) {
            E2ePlatform.awaitQuietly(millis);
        }
    }

    private static void signal(ServiceProcess process, String signal) throws IOException, InterruptedException {
        long pid = process.process().pid();
        int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
        assertThat(exit).as("kill -%s %d", signal, pid).isZero();
    }
}
