package dev.jobweaver.api.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Events;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An event id starts its runs once: the same event again, one after the other or several at once, starts nothing new
 * and is answered with the same runs; the same id with another type or other data is a 409 that starts nothing; the
 * same id in another tenant is another event.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class EventOnceTest {

    @Test
    void theSameEventAgainStartsNothingNewAndIsAnsweredWithTheSameRuns() throws Exception {
        String type = Events.freshType("order.created");
        String workflowId = Events.listening("t-once", type);
        String body = Events.body("order-" + UUID.randomUUID(), type, "{\"orderId\":7}", "t-once");

        JsonPath first = Answers.expect(Events.publish(body), 202, "the event");
        JsonPath again = Answers.expect(Events.publish(body), 202, "the same event again");
        // a workflow that listens from now on does not make a repeat start anything either
        Events.listening("t-once", type);
        JsonPath late = Answers.expect(Events.publish(body), 202, "the same event once more");

        assertThat(first.getList("runs")).hasSize(1);
        assertThat(again.getList("runs")).isEqualTo(first.getList("runs"));
        assertThat(late.getList("runs")).isEqualTo(first.getList("runs"));
        assertThat(Events.runsOf(workflowId)).isEqualTo(1);
    }

    @Test
    void theSameEventSentSeveralTimesAtOnceStartsOneRun() throws Exception {
        String type = Events.freshType("order.created");
        String workflowId = Events.listening("t-once", type);
        String body = Events.body("burst-" + UUID.randomUUID(), type, "{\"orderId\":8}", "t-once");

        // a thread each, released together: the common pool of a 2-core machine would send them one by one
        int requests = 6;
        CyclicBarrier start = new CyclicBarrier(requests);
        List<Response> answers;
        try (ExecutorService threads = Executors.newFixedThreadPool(requests)) {
            answers = IntStream.range(0, requests).mapToObj(i -> CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return Events.publish(body);
            }, threads)).toList().stream().map(CompletableFuture::join).toList();
        }

        assertThat(answers).allSatisfy(answer -> assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(202));
        List<Object> runs = answers.getFirst().jsonPath().getList("runs");
        assertThat(runs).hasSize(1);
        assertThat(answers).allSatisfy(answer -> assertThat(answer.jsonPath().getList("runs")).isEqualTo(runs));
        assertThat(Events.runsOf(workflowId)).isEqualTo(1);
    }

    @Test
    void theSameIdWithOtherDataOrAnotherTypeIsAConflictThatStartsNothing() throws Exception {
        String type = Events.freshType("order.created");
        String workflowId = Events.listening("t-once", type);
        String id = "order-" + UUID.randomUUID();
        Answers.expect(Events.publish(Events.body(id, type, "{\"orderId\":1}", "t-once")), 202, "the event");

        Answers.assertRefused("other data", Events.publish(Events.body(id, type, "{\"orderId\":2}", "t-once")), 409,
                "API.EVENT_ID_CONFLICT", "was published before with another type or other data");
        Answers.assertRefused("another type", Events.publish(Events.body(id, Events.freshType("x"), "{\"orderId\":1}",
                "t-once")), 409, "API.EVENT_ID_CONFLICT", "was published before");
        // the same data written otherwise is the same event
        Answers.expect(Events.publish(Events.body(id, type, "{ \"orderId\" : 1 }", "t-once")), 202, "the same data");
        assertThat(Events.runsOf(workflowId)).isEqualTo(1);
    }

    @Test
    void theSameIdInAnotherTenantIsAnotherEvent() throws Exception {
        String type = Events.freshType("order.created");
        String mine = Events.listening("t-once", type);
        String theirs = Events.listening("t-once-other", type);
        String id = "order-" + UUID.randomUUID();

        JsonPath first = Answers.expect(Events.publish(Events.body(id, type, "{}", "t-once")), 202, "");
        JsonPath other = Answers.expect(Events.publish(Events.body(id, type, "{}", "t-once-other")), 202, "");

        assertThat(first.getList("runs")).hasSize(1).doesNotContainAnyElementsOf(other.getList("runs"));
        assertThat(Events.runsOf(mine)).isEqualTo(1);
        assertThat(Events.runsOf(theirs)).isEqualTo(1);
    }
}
