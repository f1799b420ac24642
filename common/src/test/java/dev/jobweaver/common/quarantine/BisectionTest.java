package dev.jobweaver.common.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BisectionTest {

    /** A round that applies all or nothing: it fails for good if it holds a bad item. */
    private static final class Store {
        final Set<Integer> bad;
        final List<Integer> applied = new ArrayList<>();
        final List<Integer> quarantined = new ArrayList<>();
        int rounds;

        Store(Set<Integer> bad) {
            this.bad = bad;
        }

        Uni<Void> round(List<Integer> items) {
            rounds++;
            if (items.stream().anyMatch(bad::contains)) {
                return Uni.createFrom().failure(new InvalidRecordException("bad item in " + items));
            }
            applied.addAll(items);
            return Uni.createFrom().voidItem();
        }

        Bisection<Integer> bisection() {
            return new Bisection<>(this::round, Bisection.retryForever(Duration.ofMillis(1), Duration.ofMillis(2)),
                    (item, failure) -> {
                        quarantined.add(item);
                        return Uni.createFrom().voidItem();
                    });
        }
    }

    private static List<Integer> upTo(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    @Test
    void aCleanBatchTakesOneRound() {
        Store store = new Store(Set.of());
        store.bisection().apply(upTo(100)).await().atMost(Duration.ofSeconds(5));
        assertThat(store.applied).isEqualTo(upTo(100));
        assertThat(store.rounds).isEqualTo(1);
        assertThat(store.quarantined).isEmpty();
    }

    @Test
    void badItemsAreQuarantinedAndEveryGoodOneAppliedInOrder() {
        Store store = new Store(Set.of(0, 37, 38, 99));
        store.bisection().apply(upTo(100)).await().atMost(Duration.ofSeconds(5));
        List<Integer> good = upTo(100).stream().filter(i -> !Set.of(0, 37, 38, 99).contains(i)).toList();
        assertThat(store.applied).isEqualTo(good);
        assertThat(store.quarantined).containsExactly(0, 37, 38, 99);
    }

    @Test
    void oneBadItemCostsAboutTwoRoundsPerHalving() {
        Store store = new Store(Set.of(513));
        store.bisection().apply(upTo(1024)).await().atMost(Duration.ofSeconds(5));
        assertThat(store.quarantined).containsExactly(513);
        assertThat(store.applied).hasSize(1023);
        assertThat(store.rounds).isLessThanOrEqualTo(1 + 2 * 10);
    }

    @Test
    void aTransientFailureIsRetriedAndQuarantinesNothing() {
        AtomicInteger calls = new AtomicInteger();
        List<Integer> applied = new ArrayList<>();
        List<Integer> quarantined = new ArrayList<>();
        Bisection<Integer> bisection = new Bisection<>(items -> {
            if (calls.incrementAndGet() <= 3) {
                return Uni.createFrom().failure(new ConnectException("database down"));
            }
            applied.addAll(items);
            return Uni.createFrom().voidItem();
        }, Bisection.retryForever(Duration.ofMillis(1), Duration.ofMillis(2)), (item, failure) -> {
            quarantined.add(item);
            return Uni.createFrom().voidItem();
        });
        bisection.apply(upTo(10)).await().atMost(Duration.ofSeconds(5));
        assertThat(applied).isEqualTo(upTo(10));
        assertThat(quarantined).isEmpty();
        assertThat(calls).hasValue(4);
    }

    @Test
    void aTransientFailureThatOutlastsTheRetriesFailsTheBatchWithoutQuarantining() {
        List<Integer> quarantined = new ArrayList<>();
        Bisection<Integer> bisection = new Bisection<>(
                items -> Uni.createFrom().failure(new ConnectException("database down")),
                uni -> uni.onFailure(Failures::isTransient).retry().atMost(2),
                (item, failure) -> {
                    quarantined.add(item);
                    return Uni.createFrom().voidItem();
                });
        assertThatThrownBy(() -> bisection.apply(upTo(4)).await().atMost(Duration.ofSeconds(5)))
                .hasRootCauseInstanceOf(ConnectException.class);
        assertThat(quarantined).isEmpty();
    }

    @Test
    void theQuarantineIsGivenThePermanentFailure() {
        List<Throwable> failures = new ArrayList<>();
        Bisection<Integer> bisection = new Bisection<>(
                items -> Uni.createFrom().failure(new InvalidRecordException("traceId too long")),
                Bisection.retryForever(Duration.ofMillis(1), Duration.ofMillis(2)),
                (item, failure) -> {
                    failures.add(failure);
                    return Uni.createFrom().voidItem();
                });
        bisection.apply(List.of(7)).await().atMost(Duration.ofSeconds(5));
        assertThat(failures).singleElement().extracting(Throwable::getMessage).isEqualTo("traceId too long");
    }
}
