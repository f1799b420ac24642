package dev.jobweaver.api.workflow;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A workflow is created as version 1, read at its latest version or at any other, listed, replaced by a new version
 * that leaves the old one readable, and deleted.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class WorkflowResourceTest {

    @Test
    void aWorkflowIsCreatedReadReplacedByANewVersionAndDeleted() {
        Response created = Workflows.create(Workflows.VALID);
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        String id = created.jsonPath().getString("id");
        assertThat(created.header("Location")).isEqualTo("/api/workflows/" + id);
        JsonPath body = created.jsonPath();
        assertThat(body.getInt("version")).isEqualTo(1);
        assertThat(body.getInt("latestVersion")).isEqualTo(1);
        assertThat(body.getString("name")).isEqualTo("etl");
        assertThat(body.getString("tenant")).isEqualTo("default");
        assertThat(body.getInt("maxConcurrency")).isEqualTo(5);
        assertThat(body.getString("onFailure")).as("the default").isEqualTo("FAIL_FAST");
        assertThat(body.getList("nodes.id")).containsExactly("extract", "a", "b", "load");
        assertThat(body.getList("nodes[3].dependsOn")).containsExactly("a", "b");
        assertThat(body.getList("nodes[0].dependsOn")).isEmpty();
        assertThat(body.getString("nodes[0].job.jobType")).isEqualTo("SIMULATION");
        assertThat(body.getString("nodes[0].job.payload.steps[0].message")).isEqualTo("node");
        assertThat(body.getInt("nodes[0].job.maxRetryCount")).isEqualTo(1);

        JsonPath read = given().get("/api/workflows/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(read.getList("nodes.id")).containsExactly("extract", "a", "b", "load");
        assertThat(read.getString("createdAt")).isEqualTo(body.getString("createdAt"));

        String replacement = """
                {"name":"etl v2","onFailure":"CONTINUE","nodes":[{"id":"only","job":{"jobType":"SIMULATION",\
                "payload":{"steps":[{"action":"LOG","message":"v2"}]}}}]}""";
        JsonPath replaced = given().contentType(ContentType.JSON).body(replacement).put("/api/workflows/" + id)
                .then().statusCode(200).extract().jsonPath();
        assertThat(replaced.getInt("version")).isEqualTo(2);
        assertThat(replaced.getInt("latestVersion")).isEqualTo(2);
        assertThat(replaced.getString("name")).isEqualTo("etl v2");
        assertThat(replaced.getString("onFailure")).isEqualTo("CONTINUE");
        assertThat(replaced.get("maxConcurrency") == null).as("no limit given").isTrue();
        assertThat(replaced.getInt("nodes[0].job.maxRetryCount")).as("the default made explicit").isEqualTo(3);

        JsonPath latest = given().get("/api/workflows/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(latest.getList("nodes.id")).containsExactly("only");
        JsonPath first = given().queryParam("version", 1).get("/api/workflows/" + id).then().statusCode(200)
                .extract().jsonPath();
        assertThat(first.getInt("version")).isEqualTo(1);
        assertThat(first.getInt("latestVersion")).isEqualTo(2);
        assertThat(first.getString("name")).isEqualTo("etl");
        assertThat(first.getList("nodes.id")).containsExactly("extract", "a", "b", "load");

        given().delete("/api/workflows/" + id).then().statusCode(204);
        given().get("/api/workflows/" + id).then().statusCode(404);
    }

    @Test
    void aTenantsWorkflowsAreListedNewestFirstAndItsJobsTakeItsTenant() {
        String tenant = "wf-" + UUID.randomUUID().toString().substring(0, 8);
        String body = """
                {"name":"%s","tenant":"%s","nodes":[{"id":"x","job":%s}]}""";
        String older = Workflows.createOne(body.formatted("older", tenant, Workflows.JOB)).getString("id");
        JsonPath newer = Workflows.createOne(body.formatted("newer", tenant, Workflows.JOB));
        assertThat(newer.getString("tenant")).isEqualTo(tenant);
        assertThat(newer.getString("nodes[0].job.tenant")).as("the node's job takes the workflow's tenant")
                .isEqualTo(tenant);

        JsonPath page = given().queryParam("tenant", tenant).get("/api/workflows").then().statusCode(200).extract()
                .jsonPath();
        assertThat(page.getList("workflows.id")).containsExactly(newer.getString("id"), older);
        assertThat(page.getLong("totalElements")).isEqualTo(2);
        assertThat(page.getInt("totalPages")).isEqualTo(1);
        JsonPath small = given().queryParam("tenant", tenant).queryParam("size", 1).queryParam("page", 1)
                .get("/api/workflows").then().statusCode(200).extract().jsonPath();
        assertThat(small.getList("workflows.id")).containsExactly(older);
        assertThat(small.getInt("totalPages")).isEqualTo(2);
        List<String> all = given().get("/api/workflows").then().statusCode(200).extract().jsonPath()
                .getList("workflows.id");
        assertThat(all).isNotEmpty();
    }
}
