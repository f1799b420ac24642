package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The notify workload's figures and correctness, from the subscribed jobs and the deliveries the receiver took. */
class NotificationsTest {

    private static final byte[] KEY = "a-subscription-secret-of-32-byte".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OTHER_KEY = "another-secret-of-thirty-2-bytes".getBytes(StandardCharsets.US_ASCII);

    /** A job subscribed at T0 + 50 ms (answered in 3 ms), COMPLETED at T0 + finishMs. */
    static Notifications.Job job(long finishMs) {
        return new Notifications.Job(UUID.randomUUID(), 201, 3.0, at(50), KEY, "COMPLETED", at(finishMs));
    }

    /** A delivery of {@code job}'s completion as the platform sends it, signed with {@code key}, at T0 + atMs. */
    static NotifyEndpoint.Delivery delivery(Notifications.Job job, String id, byte[] key, long atMs,
                                             Instant finishedAt) {
        String body = "{\"type\":\"job.completed\",\"jobId\":\"" + job.jobId() + "\",\"status\":\"COMPLETED\""
                + (finishedAt == null ? "" : ",\"finishedAt\":\"" + finishedAt + "\"") + "}";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return NotifyEndpoint.parse(id, "1767225600", Webhooks.sign(key, id, "1767225600", bytes), bytes, at(atMs));
    }

    @Test
    void latencyRunsFromTheFinishInTheBodyToTheFirstGoodDelivery() {
        Notifications.Job a = job(1_000);
        Notifications.Job b = job(1_010);
        Notifications.Job c = job(1_020);
        List<NotifyEndpoint.Delivery> deliveries = List.of(
                delivery(a, "msg_a", KEY, 1_040, a.finishedAt()),
                delivery(b, "msg_b", KEY, 1_070, b.finishedAt()),
                // a redelivery of b's message, and a second message for c: both duplicates, one of them by id
                delivery(b, "msg_b", KEY, 1_200, b.finishedAt()),
                delivery(c, "msg_c", KEY, 1_100, null),
                delivery(c, "msg_c2", KEY, 1_300, null));
        Notifications n = Notifications.of(List.of(a, b, c), deliveries, 250.0);

        assertThat(n.jobs()).isEqualTo(3);
        assertThat(n.subscribed()).isEqualTo(3);
        assertThat(n.completed()).isEqualTo(3);
        assertThat(n.delivered()).isEqualTo(3);
        assertThat(n.missing()).isZero();
        assertThat(n.deliveries()).isEqualTo(5);
        assertThat(n.duplicates()).isEqualTo(2);
        assertThat(n.sameId()).isEqualTo(1);
        assertThat(n.badSignatures()).isZero();
        // 40, 60 and 80 ms (c's finish from the API's row: its body has none)
        assertThat(n.finishToReceipt().count()).isEqualTo(3);
        assertThat(n.finishToReceipt().max()).isEqualTo(80);
        assertThat(n.finishToReceipt().p50()).isCloseTo(60, within(0.06));
        assertThat(n.finishFromBody()).isEqualTo(2);
        // five good deliveries from 1.040 s to 1.300 s
        assertThat(n.deliveriesPerSecond()).isCloseTo(5 / 0.26, within(1e-9));
        assertThat(n.subscriptionsPerSecond()).isEqualTo(250);
        assertThat(n.subscribeAnswer().p50()).isEqualTo(3);
        assertThat(n.problems()).isEmpty();
        assertThat(Notifications.correctness(List.of(a, b, c), deliveries).ok()).isTrue();
    }

    @Test
    void aBadSignatureIsCountedAndItsDeliveryIsNoDelivery() {
        Notifications.Job forged = job(1_000);
        Notifications.Job fine = job(1_000);
        List<NotifyEndpoint.Delivery> deliveries = List.of(
                delivery(forged, "msg_1", OTHER_KEY, 1_050, forged.finishedAt()),
                delivery(fine, "msg_2", KEY, 1_050, fine.finishedAt()));
        Notifications n = Notifications.of(List.of(forged, fine), deliveries, Double.NaN);
        assertThat(n.badSignatures()).isEqualTo(1);
        assertThat(n.delivered()).isEqualTo(1);
        assertThat(n.missing()).as("it completed and nothing good came").isEqualTo(1);
        assertThat(n.finishToReceipt().count()).isEqualTo(1);
        assertThat(n.deliveriesPerSecond()).as("one good delivery spans no time").isNaN();
        assertThat(n.problems()).singleElement().asString()
                .isEqualTo(forged.jobId() + " (notify): no delivery with a good signature; 1 deliveries with a bad "
                        + "signature");
        Correctness c = Notifications.correctness(List.of(forged, fine), deliveries);
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.lost()).isZero();
        assertThat(c.asExpected()).isEqualTo(1);
    }

    @Test
    void aMissingDeliveryIsLostAndAJobThatFinishedBeforeItsSubscriptionIsCountedApart() {
        Notifications.Job missing = job(1_000);
        Notifications.Job early = job(20);
        Notifications.Job earlyButDelivered = job(30);
        Notifications.Job open = new Notifications.Job(UUID.randomUUID(), 201, 3.0, at(50), KEY, "PENDING", null);
        List<NotifyEndpoint.Delivery> deliveries = List.of(
                delivery(earlyButDelivered, "msg_3", KEY, 60, earlyButDelivered.finishedAt()));
        List<Notifications.Job> jobs = List.of(missing, early, earlyButDelivered, open);
        Notifications n = Notifications.of(jobs, deliveries, Double.NaN);
        assertThat(n.missing()).isEqualTo(1);
        assertThat(n.finishedBeforeSubscribed()).isEqualTo(2);
        assertThat(n.delivered()).isEqualTo(1);
        assertThat(n.finishToReceipt().count()).as("the early ones are not timed").isZero();
        assertThat(n.completed()).isEqualTo(3);
        Correctness c = Notifications.correctness(jobs, deliveries);
        assertThat(c.lost()).isEqualTo(2);
        assertThat(c.asExpected()).isEqualTo(2);
        assertThat(c.examples()).containsExactly(
                missing.jobId() + " (notify): no delivery with a good signature",
                open.jobId() + " (notify): ended PENDING, not COMPLETED");
    }

    @Test
    void aRefusedSubscriptionAndDeliveriesForOtherJobs() {
        Notifications.Job refused = new Notifications.Job(UUID.randomUUID(), 400, 2.0, at(50), null, "COMPLETED",
                at(1_000));
        Notifications.Job stranger = job(1_000);
        List<NotifyEndpoint.Delivery> deliveries = new ArrayList<>(List.of(
                delivery(stranger, "msg_x", KEY, 1_010, null),
                NotifyEndpoint.parse("msg_y", "1", "v1,x", "{}".getBytes(StandardCharsets.UTF_8), at(1_020))));
        Notifications n = Notifications.of(List.of(refused), deliveries, Double.NaN);
        assertThat(n.subscribed()).isZero();
        assertThat(n.missing()).as("nothing was asked for").isZero();
        assertThat(n.strays()).isEqualTo(2);
        assertThat(n.deliveries()).isZero();
        assertThat(n.subscribeAnswer().count()).as("the time of a 201 only").isZero();
        Correctness c = Notifications.correctness(List.of(refused), deliveries);
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.examples()).singleElement().asString().endsWith("(notify): subscription answered 400");
    }

    @Test
    void theJobsStartTogetherAtLeastTwentySecondsAheadOrThreeMillisecondsAJob() {
        assertThat(Notifications.lead(1)).isEqualTo(Duration.ofSeconds(20));
        assertThat(Notifications.lead(3_333)).isEqualTo(Duration.ofSeconds(20));
        assertThat(Notifications.lead(10_000)).isEqualTo(Duration.ofSeconds(60));
        assertThat(Notifications.subscriptionBody(UUID.fromString("6f1c1a52-3c55-4d4e-9f0e-2d5f7b9a0c11"),
                "http://127.0.0.1:9/hook")).isEqualTo("{\"jobId\":\"6f1c1a52-3c55-4d4e-9f0e-2d5f7b9a0c11\","
                + "\"events\":[\"COMPLETED\"],\"url\":\"http://127.0.0.1:9/hook\"}");
        assertThat(Notifications.NONE.measured()).isFalse();
    }
}
