package dev.jobweaver.common.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Group commit under concurrency: many submitters and writes completing on other threads, every call in exactly one
 * batch with its own result, never more batches in flight than allowed, and a flat stack however many batches wait.
 */
class GroupCommitConcurrencyTest {

    private static final int SUBMITTERS = 8;
    private static final int PER_SUBMITTER = 2_000;

    @Test
    void concurrentSubmittersEachGetTheirOwnResultWithAtMostTheAllowedBatchesInFlight() throws Exception {
        int maxBatchSize = 50;
        int maxInFlight = 3;
        ConcurrentLinkedQueue<List<Integer>> batches = new ConcurrentLinkedQueue<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        // Writes complete on other threads, in any order, as the database client's would.
        ExecutorService database = Executors.newFixedThreadPool(4);
        GroupCommit<Integer, String> commit = new GroupCommit<>(maxBatchSize, maxInFlight, batch -> {
            batches.add(batch);
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<List<String>> written = new CompletableFuture<>();
            database.execute(() -> {
                if (ThreadLocalRandom.current().nextInt(4) == 0) {
                    Thread.yield();
                }
                inFlight.decrementAndGet();
                written.complete(batch.stream().map(i -> "row " + i).toList());
            });
            return written;
        });
        List<List<CompletableFuture<String>>> results = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService submitters = Executors.newFixedThreadPool(SUBMITTERS)) {
            List<java.util.concurrent.Future<List<CompletableFuture<String>>>> mine = new ArrayList<>();
            for (int t = 0; t < SUBMITTERS; t++) {
                int base = t * PER_SUBMITTER;
                mine.add(submitters.submit(() -> {
                    start.await();
                    List<CompletableFuture<String>> calls = new ArrayList<>(PER_SUBMITTER);
                    for (int i = 0; i < PER_SUBMITTER; i++) {
                        calls.add(commit.submit(base + i));
                    }
                    return calls;
                }));
            }
            start.countDown();
            for (var future : mine) {
                results.add(future.get(30, TimeUnit.SECONDS));
            }
        }
        CompletableFuture.allOf(results.stream().flatMap(List::stream).toArray(CompletableFuture[]::new))
                .get(30, TimeUnit.SECONDS);
        database.shutdown();

        for (int t = 0; t < SUBMITTERS; t++) {
            for (int i = 0; i < PER_SUBMITTER; i++) {
                assertThat(results.get(t).get(i).join()).isEqualTo("row " + (t * PER_SUBMITTER + i));
            }
        }
        List<Integer> flushed = batches.stream().flatMap(List::stream).toList();
        assertThat(flushed).as("every call in exactly one batch").hasSize(SUBMITTERS * PER_SUBMITTER)
                .doesNotHaveDuplicates();
        assertThat(batches).allSatisfy(batch -> {
            assertThat(batch).hasSizeBetween(1, maxBatchSize);
            for (int t = 0; t < SUBMITTERS; t++) {
                int submitter = t;
                assertThat(batch.stream().filter(i -> i / PER_SUBMITTER == submitter).toList())
                        .as("one submitter's calls keep their order in a batch").isSorted();
            }
        });
        assertThat(batches.size()).as("calls were grouped").isLessThan(SUBMITTERS * PER_SUBMITTER);
        assertThat(mostInFlight.get()).as("batches in flight at once").isBetween(1, maxInFlight);
        assertThat(commit.batchesInFlight()).isZero();
        assertThat(commit.waiting()).isZero();
    }

    @Test
    void manyBatchesThatAreWrittenAtOnceNeitherRecurseNorStall() throws Exception {
        int calls = 100_000;
        CompletableFuture<List<String>> firstWrite = new CompletableFuture<>();
        AtomicInteger flushes = new AtomicInteger();
        // Batches of one, every flush but the first answering before it returns: a recursive hand-over from one
        // batch to the next would need a stack frame per batch.
        GroupCommit<Integer, String> commit = new GroupCommit<>(1, 1, batch -> flushes.getAndIncrement() == 0
                ? firstWrite
                : CompletableFuture.completedFuture(List.of("row " + batch.getFirst())));
        List<CompletableFuture<String>> results = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            results.add(commit.submit(i));
        }
        assertThat(commit.waiting()).isEqualTo(calls - 1);

        firstWrite.complete(List.of("row 0"));

        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertThat(results.getLast().join()).isEqualTo("row " + (calls - 1));
        assertThat(flushes).hasValue(calls);
        assertThat(commit.batchesInFlight()).isZero();
    }

    @Test
    void aCallerThatSubmitsAgainFromItsResultIsServedLikeAnyOther() throws Exception {
        GroupCommitTest.Writes db = new GroupCommitTest.Writes();
        GroupCommit<Integer, String> commit = db.commit(10, 1);
        commit.submit(0);
        List<CompletionStage<String>> followUps = new ArrayList<>();
        List<CompletableFuture<String>> first = List.of(commit.submit(1), commit.submit(2));
        for (CompletableFuture<String> call : first) {
            followUps.add(call.thenCompose(row -> commit.submit(100 + Integer.parseInt(row.substring(4)))));
        }
        db.write(0);

        db.write(1); // 1 and 2 are written; their callers submit 101 and 102 while the batch is being answered

        assertThat(db.batches).containsExactly(List.of(0), List.of(1, 2), List.of(101));
        assertThat(commit.waiting()).isEqualTo(1);
        db.write(2);
        assertThat(db.batches).containsExactly(List.of(0), List.of(1, 2), List.of(101), List.of(102));
        db.write(3);
        Set<String> rows = new HashSet<>();
        for (CompletionStage<String> followUp : followUps) {
            rows.add(followUp.toCompletableFuture().get(1, TimeUnit.SECONDS));
        }
        assertThat(rows).containsExactlyInAnyOrder("row 101", "row 102");
    }
}
