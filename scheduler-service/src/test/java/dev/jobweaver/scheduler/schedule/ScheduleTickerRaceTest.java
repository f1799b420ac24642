package dev.jobweaver.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.ScheduleKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Ticker rounds that race (other replicas, or this one's timer) claim disjoint timers and never fire a tick twice:
 * every due tick of every schedule is fired exactly once.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ScheduleTickerRaceTest extends ScheduleKafkaTest {

    @Inject
    ScheduleTicker ticker;

    @Test
    void racingRoundsFireEachDueTickExactlyOnce() {
        // Forty schedules ticking every ten seconds, each with its last five ticks due (the oldest 42 s late: none is
        // a misfire) and its next tick 8 s ahead.
        Instant latest = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusSeconds(2);
        Instant anchor = latest.minus(Duration.ofDays(1));
        List<UUID> ids = IntStream.range(0, 40).mapToObj(i -> UUID.randomUUID()).toList();
        for (UUID id : ids) {
            schedules.insertTimer(id, "PT10S", anchor, latest.minusSeconds(40), Misfire.FIRE_ONCE, Overlap.ALLOW);
        }

        // Four racers, each claiming round after round on its own connection and transaction until nothing is due.
        List<Uni<List<ScheduleFiredEvent>>> racers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            racers.add(Multi.createBy().repeating().uni(ticker::round)
                    .whilst(round -> !round.fired().isEmpty())
                    .collect().in(ArrayList<ScheduleFiredEvent>::new, (all, round) -> all.addAll(round.fired()))
                    .map(all -> (List<ScheduleFiredEvent>) all));
        }
        List<ScheduleFiredEvent> byRacers = Uni.join().all(racers).andFailFast().await().atMost(Duration.ofSeconds(60))
                .stream().flatMap(List::stream).filter(e -> ids.contains(e.scheduleId())).toList();

        Set<UUID> jobs = new HashSet<>();
        byRacers.forEach(e -> assertThat(jobs.add(e.jobId())).as("tick %s of %s fired once", e.scheduledFor(),
                e.scheduleId()).isTrue());
        for (UUID id : ids) {
            List<ScheduleFiredEvent> fired = schedules.awaitFired(id, 5, Duration.ofSeconds(30));
            Map<Instant, Long> perTick = fired.stream().collect(Collectors.groupingBy(ScheduleFiredEvent::scheduledFor,
                    Collectors.counting()));
            assertThat(perTick).as("records per tick of %s", id).allSatisfy((tick, count) -> assertThat(count)
                    .isEqualTo(1L));
            assertThat(perTick.keySet()).as("ticks of %s", id).containsAll(IntStream.rangeClosed(0, 4)
                    .mapToObj(k -> latest.minusSeconds(10L * k)).toList());
            fired.forEach(e -> assertThat(e.jobId()).isEqualTo(JobIds.forTick(id, e.scheduledFor())));
        }
        settle();
        for (UUID id : ids) {
            List<ScheduleFiredEvent> fired = schedules.fired(id);
            assertThat(fired.stream().map(ScheduleFiredEvent::scheduledFor).distinct().count()).as("records of %s", id)
                    .isEqualTo(fired.size());
            assertThat(fired).noneMatch(ScheduleFiredEvent::catchUp);
        }
    }
}
