package dev.jobweaver.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.security.AccessTable.Access;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The access table against the code: every REST endpoint compiled into the API names its lowest role (or is public),
 * appears in {@link AccessTable#EXPECTED} with that role, and the table names no endpoint the code lacks; and
 * {@code docs/access.md} is the table as generated now ({@code -Djobweaver.write-access-doc=true} rewrites it).
 */
class AccessTableTest {

    private static final Path DOC = Path.of("..", "docs", "access.md");

    @Test
    void theScanFindsTheApisResources() {
        List<String> endpoints = AccessTable.endpoints().stream().map(Access::endpoint).toList();
        // one endpoint of each kind of resource: the scan reaches every package, not just the first it lists
        assertThat(endpoints).contains("POST /api/jobs", "GET /api/dead-letters/{jobId}",
                "POST /api/workflow-runs/{runId}/cancel", "PUT /api/tenants/{tenant}/limits",
                "GET /api/dashboard/config", "POST /api/hooks/{id}");
    }

    @Test
    void everyEndpointNamesItsRole() {
        List<String> unannotated = AccessTable.endpoints().stream().filter(a -> a.role() == null)
                .map(Access::endpoint).toList();
        assertThat(unannotated).as("endpoints with neither @RolesAllowed nor @PermitAll").isEmpty();
        List<String> unknown = AccessTable.endpoints().stream().filter(a -> a.role() != null
                        && !AccessTable.PUBLIC.equals(a.role()) && !Roles.isKnown(a.role()))
                .map(a -> a.endpoint() + " -> " + a.role()).toList();
        assertThat(unknown).as("endpoints naming no known role (use the Roles constants)").isEmpty();
    }

    @Test
    void everyEndpointIsInTheTableWithItsRole() {
        Map<String, String> declared = AccessTable.endpoints().stream()
                .collect(Collectors.toMap(Access::endpoint, a -> String.valueOf(a.role())));
        Map<String, String> expected = AccessTable.EXPECTED.stream()
                .collect(Collectors.toMap(Access::endpoint, Access::role));
        assertThat(declared.keySet()).as("endpoints missing from AccessTable.EXPECTED")
                .isSubsetOf(expected.keySet());
        assertThat(expected.keySet()).as("AccessTable.EXPECTED rows no endpoint of the code matches")
                .isSubsetOf(declared.keySet());
        assertThat(declared).as("the lowest role each endpoint's annotation names").isEqualTo(expected);
    }

    @Test
    void theTableNamesEachEndpointOnce() {
        Map<String, Long> counts = AccessTable.EXPECTED.stream()
                .collect(Collectors.groupingBy(Access::endpoint, Collectors.counting()));
        assertThat(counts).allSatisfy((endpoint, count) -> assertThat(count).as(endpoint).isOne());
        assertThat(AccessTable.EXPECTED).allSatisfy(a -> assertThat(a.tenancy()).as(a.endpoint()).isNotNull());
    }

    @Test
    void theDocumentIsTheTable() throws IOException {
        String generated = AccessTable.markdown();
        if (Boolean.getBoolean("jobweaver.write-access-doc")) {
            Files.writeString(DOC, generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(DOC)).as(DOC.toAbsolutePath().normalize() + " exists").isTrue();
        assertThat(Files.readString(DOC, StandardCharsets.UTF_8))
                .as("docs/access.md is stale: rewrite it with -Djobweaver.write-access-doc=true")
                .isEqualTo(generated);
    }

    @Test
    void theDocumentShowsEveryRowOfTheTable() {
        String markdown = AccessTable.markdown();
        assertThat(AccessTable.EXPECTED.stream().map(a -> "| " + a.method() + " | `" + a.path() + "` | " + a.role()
                + " |")).allSatisfy(line -> assertThat(markdown).contains(line));
    }
}
