package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GET /api/jobs filters by priority, tenant and labels (every label given must match), and refuses bad values. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobResourceFilterTest {

    private static String submit(String tenant, String priority, String labels) {
        Response response = Jobs.submit("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
                + "\"message\":\"hi\"}]},\"tenant\":\"" + tenant + "\"" + (priority == null ? "" : ",\"priority\":\""
                + priority + "\"") + (labels == null ? "" : ",\"labels\":" + labels) + "}");
        assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(202);
        return response.jsonPath().getString("jobId");
    }

    private static List<String> ids(UnaryOperator<RequestSpecification> filters) {
        return filters.apply(given().queryParam("size", 100)).get("/api/jobs").then().statusCode(200).extract()
                .jsonPath().getList("jobs.id", String.class);
    }

    @Test
    void filtersCombineAndEveryLabelMustMatch() {
        String tenant = "t-" + UUID.randomUUID().toString().substring(0, 8);
        String high = submit(tenant, "HIGH", "{\"team\":\"billing\",\"env\":\"prod\"}");
        String low = submit(tenant, "LOW", "{\"team\":\"billing\",\"env\":\"dev\"}");
        String normal = submit(tenant, null, null);
        String elsewhere = submit("other-" + tenant, "HIGH", "{\"team\":\"billing\",\"env\":\"prod\"}");

        assertThat(ids(r -> r.queryParam("tenant", tenant))).containsExactly(normal, low, high);
        assertThat(ids(r -> r.queryParam("tenant", tenant).queryParam("priority", "HIGH"))).containsExactly(high);
        assertThat(ids(r -> r.queryParam("tenant", tenant).queryParam("priority", "NORMAL")))
                .containsExactly(normal);
        assertThat(ids(r -> r.queryParam("tenant", tenant).queryParam("label", "team:billing")))
                .containsExactly(low, high);
        assertThat(ids(r -> r.queryParam("tenant", tenant).queryParam("label", "team:billing")
                .queryParam("label", "env:prod"))).containsExactly(high);
        assertThat(ids(r -> r.queryParam("tenant", tenant).queryParam("label", "env:prod")
                .queryParam("label", "env:dev"))).isEmpty();
        assertThat(ids(r -> r.queryParam("label", "team:billing").queryParam("label", "env:prod")))
                .contains(high, elsewhere).doesNotContain(low, normal);
        assertThat(given().queryParam("tenant", tenant).queryParam("label", "team:billing").get("/api/jobs")
                .then().statusCode(200).extract().jsonPath().getLong("totalElements")).isEqualTo(2);
    }

    @Test
    void aLabelValueMayHoldColonsAndTheDefaultTenantIsFilterable() {
        String tenant = "t-" + UUID.randomUUID().toString().substring(0, 8);
        String url = submit(tenant, null, "{\"source\":\"https://a.example:8443/x\"}");

        assertThat(ids(r -> r.queryParam("label", "source:https://a.example:8443/x"))).containsExactly(url);
        String original = Jobs.submitOne();
        assertThat(ids(r -> r.queryParam("tenant", "default"))).contains(original).doesNotContain(url);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "priority|URGENT|query parameter priority 'URGENT' is not valid; valid values are HIGH, NORMAL, LOW",
            "tenant|Acme|query parameter tenant must match",
            "tenant|-x|query parameter tenant must match",
            "label|team|query parameter label must be key:value",
            "label|:billing|query parameter label must be key:value",
            "label|-team:billing|query parameter label must be key:value",
    })
    void badFilterValuesAre400sNamingTheParameter(String name, String value, String message) {
        Response response = given().queryParam(name, value).get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_PARAMETER");
        assertThat(response.jsonPath().getString("message")).contains(message);
    }

    @Test
    void moreThanSixteenLabelFiltersAreRefused() {
        RequestSpecification request = given();
        for (int i = 0; i < 17; i++) {
            request = request.queryParam("label", "k" + i + ":v");
        }

        Response response = request.get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("message")).contains("label may be given at most 16 times, got 17");
    }
}
