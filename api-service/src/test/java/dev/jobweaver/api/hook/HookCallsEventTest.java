package dev.jobweaver.api.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.job.JobIds;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A hook whose target is an event type: its call publishes an event of that type in the hook's tenant through
 * {@link EventPublisher} (a test double here), the body as its data and its id fixed by the hook and the signature, so
 * the same signed request publishes the same event.
 */
class HookCallsEventTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Records every publication and answers one run per event id. */
    private static final class RecordingPublisher implements EventPublisher {

        record Publication(String tenant, String eventId, String type, JsonNode data) {
        }

        final List<Publication> publications = new ArrayList<>();

        @Override
        public Uni<Published> publish(String tenant, String eventId, String type, JsonNode data) {
            publications.add(new Publication(tenant, eventId, type, data));
            return Uni.createFrom().item(new Published(eventId, List.of(UUID.nameUUIDFromBytes(eventId.getBytes()))));
        }
    }

    private final RecordingPublisher publisher = new RecordingPublisher();
    // neither the job path nor the workflow path is taken by an event's hook
    private final HookCalls calls = new HookCalls(null, null, publisher);

    private static StoredHook hook(String type) {
        return new StoredHook(JobIds.next(), "orders", "acme", new HookTarget.Event(type), "jwhook_x", Instant.now());
    }

    @Test
    void aCallPublishesAnEventOfTheHooksTypeWithTheBodyAsItsData() throws Exception {
        StoredHook hook = hook("order.created");
        JsonNode body = MAPPER.readTree("{\"orderId\":42}");

        HookCalls.Outcome outcome = calls.call(hook, 1_767_225_600L, "sha256=ab", body, null).await().indefinitely();

        assertThat(publisher.publications).hasSize(1);
        RecordingPublisher.Publication publication = publisher.publications.getFirst();
        String eventId = JobIds.forHookCall(hook.id(), 1_767_225_600L, "sha256=ab").toString();
        assertThat(publication).isEqualTo(new RecordingPublisher.Publication("acme", eventId, "order.created", body));
        assertThat(outcome).isEqualTo(new HookCalls.Outcome.EventPublished(eventId,
                List.of(UUID.nameUUIDFromBytes(eventId.getBytes()))));
    }

    @Test
    void theSameSignedRequestPublishesTheSameEventAndAnotherAnother() throws Exception {
        StoredHook hook = hook("order.created");
        JsonNode body = MAPPER.readTree("{}");

        calls.call(hook, 1_767_225_600L, "sha256=ab", body, null).await().indefinitely();
        calls.call(hook, 1_767_225_600L, "sha256=ab", body, null).await().indefinitely();
        calls.call(hook, 1_767_225_601L, "sha256=cd", body, null).await().indefinitely();

        assertThat(publisher.publications).extracting(RecordingPublisher.Publication::eventId)
                .containsExactly(JobIds.forHookCall(hook.id(), 1_767_225_600L, "sha256=ab").toString(),
                        JobIds.forHookCall(hook.id(), 1_767_225_600L, "sha256=ab").toString(),
                        JobIds.forHookCall(hook.id(), 1_767_225_601L, "sha256=cd").toString());
    }
}
