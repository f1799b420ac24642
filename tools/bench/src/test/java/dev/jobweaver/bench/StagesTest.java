package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.ended;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StagesTest {

    @Test
    void eachStageIsTheGapBetweenTwoRecordedTimestamps() {
        // fixture: submit 0, stored 1, ingested 2, dispatched 3, started 10, finished 30, visible 32
        List<Stages.Stage> stages = Stages.of(List.of(completed(JobKind.NOOP, 0, 10, 30)));
        assertThat(stages).extracting(Stages.Stage::name).containsExactlyElementsOf(Stages.NAMES);
        assertThat(stages).extracting(s -> s.millis().p50()).containsExactly(1.0, 1.0, 1.0, 7.0, 20.0, 2.0);
    }

    @Test
    void theLastStageEndsWhenTheFreshnessProbeSawTheJobSoItCoversTheJobsItFollowed() {
        JobRecord followed = completed(JobKind.NOOP, 0, 10, 30).withVisibleProbedAt(Fixtures.at(45))
                .withVisibleAt(Fixtures.at(900));
        JobRecord notFollowed = completed(JobKind.NOOP, 0, 10, 30).withVisibleProbedAt(null);
        Percentiles last = Stages.of(List.of(followed, notFollowed)).getLast().millis();
        assertThat(last.count()).isEqualTo(1);
        assertThat(last.p50()).isEqualTo(15.0);
    }

    @Test
    void onlyJobsThatRanOnceCount() {
        List<Stages.Stage> stages = Stages.of(List.of(ended(JobKind.NOOP, "COMPLETED", 2, 2),
                ended(JobKind.NOOP, "FAILED", 1, 1)));
        assertThat(stages).allSatisfy(s -> assertThat(s.millis().count()).isZero());
    }

    @Test
    void aMissingTimestampLeavesOnlyItsStagesEmpty() {
        // ended(): no ingested/dispatched timestamps (scheduler database unreadable)
        List<Stages.Stage> stages = Stages.of(List.of(ended(JobKind.NOOP, "COMPLETED", 1, 1)));
        assertThat(stages.get(0).millis().count()).isEqualTo(1);
        assertThat(stages.get(1).millis().count()).isZero();
        assertThat(stages.get(2).millis().count()).isZero();
        assertThat(stages.get(3).millis().count()).isZero();
        assertThat(stages.get(4).millis().count()).isEqualTo(1);
    }
}
