package dev.jobweaver.worker.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Commit metadata encoding of completed offsets. */
class CompletedOffsetsCodecTest {

    private static final int MAX = CompletedOffsetsCodec.KAFKA_DEFAULT_MAX_METADATA;

    @Test
    void sparseSetRoundTripsInAFewCharacters() {
        long base = 9_876_543_210L;
        NavigableSet<Long> completed = new TreeSet<>();
        for (long o : new long[] {1, 500, 70_000, 1_000_000}) {
            completed.add(base + o);
        }
        CompletedOffsetsCodec.Encoded encoded = CompletedOffsetsCodec.encode(base, completed, MAX);
        assertThat(encoded.dropped()).isZero();
        assertThat(encoded.metadata()).startsWith(CompletedOffsetsCodec.PREFIX).hasSizeLessThan(40);
        CompletedOffsetsCodec.Decoded decoded = CompletedOffsetsCodec.decode(encoded.metadata()).orElseThrow();
        assertThat(decoded.base()).isEqualTo(base);
        assertThat(decoded.completed()).isEqualTo(completed);
    }

    @Test
    void denseContiguousSetRoundTripsAsOneRun() {
        NavigableSet<Long> completed = new TreeSet<>(LongStream.rangeClosed(101, 100_100).boxed().toList());
        CompletedOffsetsCodec.Encoded encoded = CompletedOffsetsCodec.encode(100, completed, MAX);
        assertThat(encoded.encoded()).isEqualTo(100_000);
        assertThat(encoded.metadata()).hasSizeLessThan(20);
        assertThat(CompletedOffsetsCodec.decode(encoded.metadata()).orElseThrow().completed()).isEqualTo(completed);
    }

    @Test
    void fragmentedSetRoundTripsAsABitmap() {
        Random random = new Random(7);
        NavigableSet<Long> completed = new TreeSet<>();
        for (long o = 1; o < 8_000; o++) {
            if (random.nextBoolean()) {
                completed.add(o);
            }
        }
        CompletedOffsetsCodec.Encoded encoded = CompletedOffsetsCodec.encode(0, completed, MAX);
        assertThat(encoded.dropped()).isZero();
        // 8000 positions in a bitmap: 1000 bytes, 1334 Base64 characters; run lengths would take about 4000 bytes.
        assertThat(encoded.metadata().length()).isBetween(1300, 1400);
        assertThat(CompletedOffsetsCodec.decode(encoded.metadata()).orElseThrow().completed()).isEqualTo(completed);
    }

    @Test
    void aSetTooLargeForTheBoundIsCutToAPrefixThatFits() {
        NavigableSet<Long> completed = new TreeSet<>();
        for (long o = 1; o < 200_000; o += 2) { // every other offset: worst case for run lengths
            completed.add(o);
        }
        CompletedOffsetsCodec.Encoded encoded = CompletedOffsetsCodec.encode(0, completed, MAX);
        assertThat(encoded.metadata().length()).isLessThanOrEqualTo(MAX);
        assertThat(encoded.dropped()).isPositive();
        assertThat(encoded.encoded() + encoded.dropped()).isEqualTo(completed.size());
        NavigableSet<Long> decoded = CompletedOffsetsCodec.decode(encoded.metadata()).orElseThrow().completed();
        assertThat(decoded).hasSize(encoded.encoded());
        // A prefix: the lowest offsets, which the next owner meets first.
        assertThat(decoded).isEqualTo(completed.headSet(decoded.last(), true));
        // About 3000 bytes of bitmap cover about 24000 positions, half of them completed.
        assertThat(encoded.encoded()).isGreaterThan(11_000);
    }

    @Test
    void aSmallerBoundIsHonouredToo() {
        NavigableSet<Long> completed = new TreeSet<>();
        for (long o = 1; o < 10_000; o += 3) {
            completed.add(o);
        }
        CompletedOffsetsCodec.Encoded encoded = CompletedOffsetsCodec.encode(0, completed, 100);
        assertThat(encoded.metadata().length()).isLessThanOrEqualTo(100);
        assertThat(CompletedOffsetsCodec.decode(encoded.metadata()).orElseThrow().completed())
                .hasSize(encoded.encoded()).first().isEqualTo(1L);
    }

    @Test
    void emptyForeignOrDamagedMetadataDecodesToNothing() {
        assertThat(CompletedOffsetsCodec.encode(5, new TreeSet<>(), MAX).metadata()).isEmpty();
        assertThat(CompletedOffsetsCodec.decode(null)).isEmpty();
        assertThat(CompletedOffsetsCodec.decode("")).isEmpty();
        assertThat(CompletedOffsetsCodec.decode("committed by kafka-consumer-groups")).isEmpty();
        assertThat(CompletedOffsetsCodec.decode(CompletedOffsetsCodec.PREFIX + "!!!")).isEmpty();
        assertThat(CompletedOffsetsCodec.decode(CompletedOffsetsCodec.PREFIX + "AQ")).isEmpty();
    }
}
