package dev.jobweaver.api.workflow;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.messaging.Topics;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Workflows in the native executable: create, read, list, a run (its start on workflow-runs), delete. */
@ExtendWith(NativeProfile.AsAdmin.class)
class WorkflowIT extends NativeExecutable {

    @Test
    void aWorkflowIsCreatedReadListedRunAndDeleted() {
        JsonPath created = Workflows.createOne(Workflows.VALID);
        String id = created.getString("id");
        assertThat(created.getList("nodes.id", String.class)).containsExactlyElementsOf(Workflows.NODES);

        JsonPath read = Answers.expect(given().get("/api/workflows/" + id), 200, "the workflow");
        assertThat(read.getList("nodes[3].dependsOn", String.class)).containsExactly("a", "b");
        assertThat(Answers.expect(given().get("/api/workflows"), 200, "the list").getList("workflows.id",
                String.class)).contains(id);

        try (KafkaProbe runs = KafkaProbe.atEndOf(NativeProfile.bootstrapServers(), Topics.WORKFLOW_RUNS)) {
            JsonPath started = Workflows.start(id, "{\"input\":{\"day\":\"2026-11-29\"}}");
            String runId = started.getString("runId");
            assertThat(started.getString("traceId")).matches("[0-9a-f]{32}");
            assertThat(runs.first(runId).value()).isNotEmpty();
            JsonPath run = Workflows.run(runId);
            assertThat(run.getString("workflowId")).isEqualTo(id);
            assertThat(run.getString("input.day")).isEqualTo("2026-11-29");
        }

        given().delete("/api/workflows/" + id).then().statusCode(204);
    }
}
