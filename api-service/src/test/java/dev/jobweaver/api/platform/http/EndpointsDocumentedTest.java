package dev.jobweaver.api.platform.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md's endpoint table names every operation of the API's own OpenAPI document ({@code /q/openapi}), and
 * every {@code /api/} operation it names is in that document. A path parameter matches whatever its name.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class EndpointsDocumentedTest {

    private static final Pattern OPERATION = Pattern.compile("`(GET|POST|PUT|DELETE|PATCH) (/[^`?\\s]*)[^`]*`");
    private static final Set<String> METHODS = Set.of("get", "post", "put", "delete", "patch");
    /** Served by resources of this module's tests only, which the OpenAPI document of a test run includes. */
    private static final String TEST_ONLY = "/api/audit-probe/";

    @Test
    void theTableAndTheOpenApiDocumentNameTheSameOperations() {
        Map<String, Map<String, Object>> paths = given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().jsonPath().getMap("paths");
        Set<String> served = new TreeSet<>();
        paths.forEach((path, operations) -> operations.keySet().stream()
                .filter(method -> METHODS.contains(method) && !path.startsWith(TEST_ONLY))
                .forEach(method -> served.add(method.toUpperCase(java.util.Locale.ROOT) + " " + normal(path))));
        assertThat(served).as("operations of /q/openapi").contains("POST /api/jobs", "GET /api/jobs/{}");

        Set<String> documented = documented();
        assertThat(served).as("operations of /q/openapi that docs/api.md's endpoint table does not name")
                .allSatisfy(operation -> assertThat(documented).contains(operation));
        List<String> unknown = documented.stream().filter(op -> op.contains(" /api/") && !served.contains(op))
                .toList();
        assertThat(unknown).as("operations docs/api.md's endpoint table names that /q/openapi does not have")
                .isEmpty();
    }

    /** Every operation the first column of the endpoint table names, each written as {@code `METHOD /path`}. */
    private static Set<String> documented() {
        String api = ApiDocs.read("docs/api.md");
        int start = api.indexOf("| method and path |");
        String table = api.substring(start, api.indexOf("\n\n", start));
        Set<String> operations = new TreeSet<>();
        table.lines().skip(2).forEach(row -> {
            Matcher m = OPERATION.matcher(row.substring(1, row.indexOf(" | ")));
            while (m.find()) {
                operations.add(m.group(1) + " " + normal(m.group(2)));
            }
        });
        return operations;
    }

    private static String normal(String path) {
        return path.replaceAll("\\{[^}]*}", "{}");
    }
}
