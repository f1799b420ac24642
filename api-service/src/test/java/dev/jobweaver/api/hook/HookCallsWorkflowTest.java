package dev.jobweaver.api.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * A hook whose target is a workflow: its call starts a run through {@link WorkflowStarter} (a test double here) with
 * the body as the run's input and a request id fixed by the hook and the signature; a missing workflow fails the
 * call. The stand-in starter finds no workflow.
 */
class HookCallsWorkflowTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Records every start and answers a run, or "workflow not found" for {@link #missing}. */
    private static final class RecordingStarter implements WorkflowStarter {

        record Start(UUID workflowId, JsonNode input, UUID requestId, String traceparent) {
        }

        final List<Start> starts = new ArrayList<>();
        final UUID missing = UUID.randomUUID();

        @Override
        public Uni<String> tenantOf(UUID workflowId) {
            return Uni.createFrom().item(missing.equals(workflowId) ? null : "default");
        }

        @Override
        public Uni<Started> start(UUID workflowId, JsonNode input, UUID requestId, String traceparent) {
            starts.add(new Start(workflowId, input, requestId, traceparent));
            if (missing.equals(workflowId)) {
                return Uni.createFrom().failure(new WorkflowNotFoundException(workflowId));
            }
            return Uni.createFrom().item(new Started(requestId, "0af7651916cd43dd8448eb211c80319c"));
        }
    }

    private final RecordingStarter starter = new RecordingStarter();
    // neither the job path nor the event path is taken by a workflow's hook: no job maker, no event publisher
    private final HookCalls calls = new HookCalls(null, starter, null);

    private static StoredHook hook(UUID workflowId) {
        return new StoredHook(JobIds.next(), "deploy", "default", new HookTarget.Workflow(workflowId), "jwhook_x",
                Instant.now());
    }

    @Test
    void aCallStartsARunOfTheWorkflowWithTheBodyAsItsInput() throws Exception {
        UUID workflowId = UUID.randomUUID();
        StoredHook hook = hook(workflowId);
        JsonNode input = MAPPER.readTree("{\"ref\":\"refs/heads/main\",\"commits\":[1,2]}");

        HookCalls.Outcome outcome = calls.call(hook, 1_767_225_600L, "sha256=ab", input,
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").await().indefinitely();

        assertThat(starter.starts).hasSize(1);
        RecordingStarter.Start start = starter.starts.getFirst();
        assertThat(start.workflowId()).isEqualTo(workflowId);
        assertThat(start.input()).isEqualTo(input);
        assertThat(start.requestId()).isEqualTo(JobIds.forHookCall(hook.id(), 1_767_225_600L, "sha256=ab"));
        assertThat(start.traceparent()).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(outcome).isEqualTo(new HookCalls.Outcome.RunStarted(start.requestId(),
                "0af7651916cd43dd8448eb211c80319c"));
    }

    @Test
    void theSameSignedRequestAsksForTheSameRunAndAnotherForAnother() throws Exception {
        StoredHook hook = hook(UUID.randomUUID());
        JsonNode input = MAPPER.readTree("{}");

        calls.call(hook, 1_767_225_600L, "sha256=ab", input, null).await().indefinitely();
        calls.call(hook, 1_767_225_600L, "sha256=ab", input, null).await().indefinitely();
        calls.call(hook, 1_767_225_601L, "sha256=cd", input, null).await().indefinitely();

        UUID first = JobIds.forHookCall(hook.id(), 1_767_225_600L, "sha256=ab");
        UUID other = JobIds.forHookCall(hook.id(), 1_767_225_601L, "sha256=cd");
        assertThat(other).isNotEqualTo(first);
        assertThat(starter.starts).extracting(RecordingStarter.Start::requestId).containsExactly(first, first, other);
    }

    @Test
    void aMissingWorkflowFailsTheCall() {
        StoredHook hook = hook(starter.missing);

        assertThatThrownBy(() -> calls.call(hook, 1_767_225_600L, "sha256=ab", MAPPER.createObjectNode(), null)
                .await().indefinitely())
                .isInstanceOf(WorkflowStarter.WorkflowNotFoundException.class)
                .hasMessageContaining(starter.missing.toString());
    }
}
