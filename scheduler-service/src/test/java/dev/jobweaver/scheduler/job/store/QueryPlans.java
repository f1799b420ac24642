package dev.jobweaver.scheduler.job.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reading the plans that {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)} returns, for the plan tests. */
final class QueryPlans {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * A table of the same shape and indexes as the jobs', empty and never analysed, that hides the service's table on
     * the connection until its transaction ends (the temporary schema comes first in the search path): what a
     * statement planned on it sees is a fresh install's table.
     */
    static final String EMPTY_JOBS =
            "CREATE TEMP TABLE job_executions (LIKE public.job_executions INCLUDING ALL) ON COMMIT DROP";

    private QueryPlans() {
    }

    /** The top node of the one plan in {@code json}. */
    static JsonNode plan(String json) {
        try {
            return MAPPER.readTree(json).get(0).get("Plan");
        } catch (IOException e) {
            throw new IllegalArgumentException("not a plan in JSON: " + json, e);
        }
    }

    /** Every node of {@code type} ("Seq Scan", "Index Scan", ...) in the plan, depth first. */
    static List<JsonNode> nodes(JsonNode plan, String type) {
        List<JsonNode> found = new ArrayList<>();
        collect(plan, type, found);
        return found;
    }

    private static void collect(JsonNode node, String type, List<JsonNode> found) {
        if (type.equals(node.path("Node Type").asText())) {
            found.add(node);
        }
        for (JsonNode child : node.path("Plans")) {
            collect(child, type, found);
        }
    }

    /**
     * Pages the whole statement touched, hit in buffers or read, of tables and of temporary tables (which a session
     * keeps in local buffers); a node counts its children's.
     */
    static long pages(JsonNode plan) {
        return plan.path("Shared Hit Blocks").asLong() + plan.path("Shared Read Blocks").asLong()
                + plan.path("Local Hit Blocks").asLong() + plan.path("Local Read Blocks").asLong();
    }
}
