package dev.jobweaver.worker.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.worker.offsets.PartitionOffsets.Admission;
import dev.jobweaver.worker.offsets.PartitionOffsets.CommitPoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The offset bookkeeping of one partition, without Kafka. */
class PartitionOffsetsTest {

    private static final int MAX = CompletedOffsetsCodec.KAFKA_DEFAULT_MAX_METADATA;

    @Test
    void watermarkStopsAtTheFirstGapAndTheMetadataListsWhatCompletedAboveIt() {
        PartitionOffsets state = new PartitionOffsets(100, null);
        for (long o = 100; o <= 105; o++) {
            assertThat(state.received(o, 0)).isEqualTo(Admission.RUN);
        }
        state.complete(100);
        state.complete(101);
        state.complete(103);
        state.complete(105);

        assertThat(state.commitPosition()).isEqualTo(102);
        CommitPoint point = state.commitPoint(MAX);
        assertThat(point.offset()).isEqualTo(102);
        assertThat(CompletedOffsetsCodec.decode(point.metadata()).orElseThrow().completed()).containsExactly(103L, 105L);
        assertThat(point.recorded()).isEqualTo(2);
        assertThat(point.dropped()).isZero();
    }

    @Test
    void completionInAnyOrderEndsWithEverythingCommitted() {
        List<Long> offsets = new ArrayList<>(LongStream.range(0, 500).boxed().toList());
        PartitionOffsets state = new PartitionOffsets(PartitionOffsets.NONE, null);
        offsets.forEach(o -> state.received(o, 0));
        Collections.shuffle(offsets, new Random(42));
        long previous = -1;
        for (int i = 0; i < offsets.size(); i++) {
            state.complete(offsets.get(i));
            long position = state.commitPosition();
            assertThat(position).isGreaterThanOrEqualTo(previous); // never moves back
            TreeSet<Long> done = new TreeSet<>(offsets.subList(0, i + 1));
            long expected = 0;
            while (done.contains(expected)) {
                expected++;
            }
            assertThat(position).isEqualTo(expected);
            previous = position;
        }
        assertThat(state.commitPosition()).isEqualTo(500);
        assertThat(state.commitPoint(MAX).metadata()).isEmpty();
        assertThat(state.inFlightCount()).isZero();
        assertThat(state.completedAboveCount()).isZero();
    }

    @Test
    void gapsInTheLogDoNotHoldTheWatermarkBack() {
        PartitionOffsets state = new PartitionOffsets(10, null);
        state.received(10, 0);
        state.received(12, 0); // 11 is a transaction marker: never delivered
        state.received(15, 0);
        state.complete(15);
        state.complete(10);
        assertThat(state.commitPosition()).isEqualTo(12);
        state.complete(12);
        assertThat(state.commitPosition()).isEqualTo(16);
    }

    @Test
    void aNewOwnerSkipsWhatThePreviousOneRecordedInTheMetadata() {
        PartitionOffsets previous = new PartitionOffsets(0, null);
        for (long o = 0; o < 10; o++) {
            previous.received(o, 0);
        }
        for (long o : new long[] {1, 2, 3, 7, 9}) {
            previous.complete(o);
        }
        CommitPoint revoked = previous.commitPoint(MAX); // what revocation commits
        assertThat(revoked.offset()).isZero();

        PartitionOffsets next = new PartitionOffsets(revoked.offset(), revoked.metadata());
        assertThat(next.knownCompletedCount()).isEqualTo(5);
        List<Long> run = new ArrayList<>();
        for (long o = 0; o < 12; o++) {
            if (next.received(o, 0) == Admission.RUN) {
                run.add(o);
            }
        }
        assertThat(run).containsExactly(0L, 4L, 5L, 6L, 8L, 10L, 11L);
        run.forEach(next::complete);
        assertThat(next.commitPosition()).isEqualTo(12);
    }

    @Test
    void metadataForAnotherBaseIsIgnored() {
        String metadata = CompletedOffsetsCodec.encode(50, new TreeSet<>(List.of(52L, 53L)), MAX).metadata();
        PartitionOffsets state = new PartitionOffsets(40, metadata); // offsets were reset by an operator
        assertThat(state.knownCompletedCount()).isZero();
        assertThat(state.received(52, 0)).isEqualTo(Admission.RUN);
    }

    @Test
    void anAcknowledgementFromBeforeAReassignmentMakesTheRedeliverySkipped() {
        PartitionOffsets state = new PartitionOffsets(20, null); // re-assigned while 20 and 21 were running here
        state.complete(21); // the old run of 21 finishes and acknowledges
        assertThat(state.received(20, 0)).isEqualTo(Admission.RUN);
        assertThat(state.received(21, 0)).isEqualTo(Admission.SKIP);
        assertThat(state.commitPosition()).isEqualTo(20);
        state.complete(20);
        assertThat(state.commitPosition()).isEqualTo(22);
    }

    @Test
    void duplicatesAndOffsetsBelowThePositionAreSkipped() {
        PartitionOffsets state = new PartitionOffsets(5, null);
        assertThat(state.received(5, 0)).isEqualTo(Admission.RUN);
        assertThat(state.received(5, 0)).isEqualTo(Admission.SKIP);
        assertThat(state.received(3, 0)).isEqualTo(Admission.SKIP);
        state.complete(5);
        assertThat(state.received(5, 0)).isEqualTo(Admission.SKIP);
    }

    @Test
    void aCommitIsNotRepeatedUntilSomethingChanges() {
        PartitionOffsets state = new PartitionOffsets(0, null);
        state.received(0, 0);
        state.received(1, 0);
        state.complete(1);
        CommitPoint first = state.commitPoint(MAX);
        assertThat(first).isNotNull();
        state.committed(first);
        assertThat(state.commitPoint(MAX)).isNull();
        state.received(2, 0);
        state.complete(2);
        CommitPoint second = state.commitPoint(MAX);
        assertThat(second.offset()).isZero();
        assertThat(second.metadata()).isNotEqualTo(first.metadata()); // same offset, more completed above it
        state.committed(second);
        state.complete(0);
        assertThat(state.commitPoint(MAX).offset()).isEqualTo(3);
    }

    @Test
    void revocationCommitsTheWatermarkWithTheCompletedOffsetsAboveIt() {
        PartitionOffsets state = new PartitionOffsets(PartitionOffsets.NONE, null);
        for (long o = 1000; o < 1100; o++) {
            state.received(o, 0);
        }
        for (long o = 1001; o < 1100; o++) {
            state.complete(o); // all but the first (a slow job)
        }
        CommitPoint atRevocation = state.commitPoint(MAX);
        assertThat(atRevocation.offset()).isEqualTo(1000);
        assertThat(CompletedOffsetsCodec.decode(atRevocation.metadata()).orElseThrow().completed())
                .hasSize(99).first().isEqualTo(1001L);
        assertThat(state.uncommittedLag()).isEqualTo(100);
    }

    @Test
    void offsetsInFlightLongerThanTheThresholdAreStuckOldestFirst() {
        PartitionOffsets state = new PartitionOffsets(0, null);
        long second = 1_000_000_000L;
        state.received(0, 0);
        state.received(1, 5 * second);
        state.received(2, 9 * second);
        state.complete(2);
        List<PartitionOffsets.StuckOffset> stuck = state.stuck(10 * second, 3 * second);
        assertThat(stuck).extracting(PartitionOffsets.StuckOffset::offset).containsExactly(0L, 1L);
        assertThat(stuck.getFirst().ageMillis()).isEqualTo(10_000);
        state.complete(0);
        assertThat(state.stuck(10 * second, 3 * second)).extracting(PartitionOffsets.StuckOffset::offset)
                .containsExactly(1L);
        assertThat(state.stuck(10 * second, 6 * second)).isEmpty();
    }
}
