package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.job.JobRequestReader;
import dev.jobweaver.api.job.JobRequestValidator;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.JsonBody;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowGraph;
import dev.jobweaver.common.workflow.WorkflowNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the body of {@code POST} and {@code PUT /api/workflows} into a {@link WorkflowDefinition}, or a 400 naming the
 * field: {@code API.MALFORMED_JSON} for a body that is not JSON or a value of the wrong type (as for jobs),
 * {@code API.INVALID_WORKFLOW_REQUEST} for a broken rule: the graph's ({@link WorkflowGraph#problems}: ids, unknown
 * dependencies, a cycle, at most 100 nodes), and every node's job read and checked exactly as a {@code POST /api/jobs}
 * body is ({@link JobRequestReader}, {@link JobRequestValidator}), its messages naming the field under
 * {@code nodes[i].job.}. Each job is stored normalised, with its retries and the workflow's tenant explicit. Also
 * reads the body of {@code POST /api/workflows/{id}/runs}.
 *
 * <p>Strict as the job reader: no coercion between strings, numbers and booleans, no trailing data, no duplicate key;
 * unknown properties are ignored.
 */
final class WorkflowRequestReader {

    /** The longest name. */
    static final int MAX_NAME_LENGTH = 200;
    /** The highest {@code maxConcurrency}. */
    static final int MAX_CONCURRENCY = 10_000;
    /** The most problems one answer lists. */
    private static final int MAX_PROBLEMS = 20;
    private static final String EXAMPLE = "{\"name\":\"etl\",\"nodes\":[{\"id\":\"extract\",\"job\":{...}}]}";

    private final JsonBody json;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;
    private final int defaultRetryCount;

    WorkflowRequestReader(ObjectMapper base, JobRequestValidator validator, int defaultRetryCount) {
        this.json = new JsonBody(base);
        this.jobs = new JobRequestReader(base);
        this.validator = validator;
        this.defaultRetryCount = defaultRetryCount;
    }

    /** The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong. */
    WorkflowDefinition read(byte[] body, Instant now) {
        return read(body, now, JobControl.DEFAULT_TENANT);
    }

    /**
     * The definition in {@code body}, valid at {@code now}, or an {@link ApiException} naming what is wrong; its tenant
     * {@code ownTenant} (the caller's) when the body names none.
     */
    WorkflowDefinition read(byte[] body, Instant now, String ownTenant) {
        JsonNode root = json.parse(body, EXAMPLE);
        if (root == null) {
            throw JsonBody.empty(EXAMPLE);
        }
        if (!root.isObject()) {
            throw JsonBody.notAnObject(root);
        }
        String name = text(root, "name");
        String tenant = text(root, "tenant");
        String onFailureText = text(root, "onFailure");
        Integer maxConcurrency = integer(root, "maxConcurrency");
        JsonNode nodesNode = JsonBody.array(root, "nodes", "nodes", "an array of nodes");

        List<String> out = new ArrayList<>();
        JsonBody.checkName(name, MAX_NAME_LENGTH, out);
        JsonBody.checkTenant(tenant, out);
        if (maxConcurrency != null && (maxConcurrency < 1 || maxConcurrency > MAX_CONCURRENCY)) {
            out.add("maxConcurrency must be between 1 and " + MAX_CONCURRENCY + ", got " + maxConcurrency);
        }
        OnFailure onFailure = JsonBody.enumValue("onFailure", onFailureText, OnFailure.class, OnFailure.FAIL_FAST, out);
        String workflowTenant = tenant == null ? ownTenant : tenant;

        int count = nodesNode == null ? 0 : nodesNode.size();
        if (count > WorkflowGraph.MAX_NODES) {
            // before the nodes' jobs are read: their problems would drown this one
            out.add("nodes: " + count + " nodes, at most " + WorkflowGraph.MAX_NODES + " are allowed");
            throw invalid(out);
        }
        List<WorkflowNode> graph = new ArrayList<>(count);
        List<WorkflowDefinition.Node> nodes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            JsonNode node = nodesNode.get(i);
            String field = "nodes[" + i + "]";
            if (!node.isObject()) {
                throw JsonBody.wrongType(field, "an object {\"id\",\"job\",\"dependsOn\"}", node);
            }
            String id = text(node, "id", field + ".id");
            List<String> dependsOn = dependsOn(node, field + ".dependsOn");
            graph.add(new WorkflowNode(id, dependsOn));
            JsonNode job = JsonBody.object(node, "job", field + ".job", " (a POST /api/jobs body)");
            ObjectNode template = null;
            if (job == null) {
                out.add(field + ".job is required: the node's job, as a POST /api/jobs body");
            } else {
                JobRequest request = jobs.readMember(job, field + ".job", ApiErrorCode.INVALID_WORKFLOW_REQUEST);
                List<String> violations = validator.violations(request, now);
                violations.forEach(violation -> out.add(field + ".job." + violation));
                if (request.runAt() != null) {
                    out.add(field + ".job.runAt is not allowed in a workflow: a node's job starts when its"
                            + " dependencies completed; use delayMs to start it later than that");
                }
                if (request.tenant() != null && !request.tenant().equals(workflowTenant)) {
                    out.add(field + ".job.tenant '" + ClientText.cut(request.tenant())
                            + "' differs from the workflow's tenant '" + workflowTenant
                            + "'; a workflow's jobs take its tenant: give it as tenant");
                }
                if (violations.isEmpty()) {
                    template = JobRequestReader.template(request, workflowTenant, defaultRetryCount);
                }
            }
            nodes.add(new WorkflowDefinition.Node(id, template, dependsOn));
        }
        out.addAll(WorkflowGraph.problems(graph, MAX_PROBLEMS));
        if (!out.isEmpty()) {
            throw invalid(out);
        }
        return new WorkflowDefinition(name, workflowTenant, List.copyOf(nodes), maxConcurrency, onFailure);
    }

    /**
     * The input of a run in {@code body} ({@code {"input":...}}): any JSON, null without one; an empty body is a run
     * without input.
     */
    JsonNode readRun(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        JsonNode root = json.parseObject(body, "{\"input\":{...}}");
        JsonNode input = root.get("input");
        return input == null || input.isNull() ? null : input;
    }

    private static List<String> dependsOn(JsonNode node, String field) {
        JsonNode array = JsonBody.array(node, "dependsOn", field, "an array of node ids");
        if (array == null) {
            return List.of();
        }
        List<String> ids = new ArrayList<>(array.size());
        for (int d = 0; d < array.size(); d++) {
            JsonNode id = array.get(d);
            if (!id.isTextual()) {
                throw JsonBody.wrongType(field + "[" + d + "]", "a node id (a string)", id);
            }
            ids.add(id.textValue());
        }
        return ids;
    }

    private static String text(JsonNode root, String field) {
        return text(root, field, field);
    }

    /** A string member, null when absent or null; a 400 when it is not a string or holds a NUL character. */
    private static String text(JsonNode root, String member, String field) {
        return JsonBody.storedText(root, member, field, ApiErrorCode.INVALID_WORKFLOW_REQUEST);
    }

    /** An integer member, null when absent or null; a 400 when it is not an integer. */
    private static Integer integer(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw JsonBody.malformed(field + " must be an integer between 1 and " + MAX_CONCURRENCY + ", got "
                    + (node.isIntegralNumber() ? node.asText() : JsonBody.describe(node)));
        }
        return node.intValue();
    }

    private static ApiException invalid(List<String> problems) {
        List<String> shown = problems.size() > MAX_PROBLEMS ? problems.subList(0, MAX_PROBLEMS) : problems;
        String more = problems.size() > MAX_PROBLEMS ? "; and " + (problems.size() - MAX_PROBLEMS) + " more" : "";
        return new ApiException(ApiErrorCode.INVALID_WORKFLOW_REQUEST, String.join("; ", shown) + more);
    }
}
