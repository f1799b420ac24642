package dev.jobweaver.api.workflow.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.persistence.JsonColumns;
import dev.jobweaver.api.job.rest.JobRequest;
import dev.jobweaver.api.job.rest.JobRequestReader;
import dev.jobweaver.api.job.rest.JobRequestValidator;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.api.workflow.service.WorkflowDefinition;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowGraph;
import dev.jobweaver.common.workflow.WorkflowNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

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

    private final ObjectMapper strict;
    private final JobRequestReader jobs;
    private final JobRequestValidator validator;
    private final int defaultRetryCount;

    WorkflowRequestReader(ObjectMapper base, JobRequestValidator validator, int defaultRetryCount) {
        ObjectMapper strict = base.copy();
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.strict = strict;
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
        JsonNode root = tree(body, "{\"name\":\"etl\",\"nodes\":[{\"id\":\"extract\",\"job\":{...}}]}");
        if (!root.isObject()) {
            throw malformed("request body must be a JSON object, got " + describe(root));
        }
        String name = text(root, "name");
        String tenant = text(root, "tenant");
        String onFailureText = text(root, "onFailure");
        Integer maxConcurrency = integer(root, "maxConcurrency");
        JsonNode nodesNode = root.get("nodes");
        if (nodesNode != null && !nodesNode.isNull() && !nodesNode.isArray()) {
            throw malformed("nodes must be an array of nodes, got " + describe(nodesNode));
        }

        List<String> out = new ArrayList<>();
        if (name == null || name.isBlank()) {
            out.add("name is required (1 to " + MAX_NAME_LENGTH + " characters)");
        } else if (name.length() > MAX_NAME_LENGTH) {
            out.add("name must be at most " + MAX_NAME_LENGTH + " characters, got " + name.length());
        }
        if (tenant != null && !JobControlRules.TENANT.matcher(tenant).matches()) {
            out.add("tenant must match [a-z0-9][a-z0-9-]{0,62}, got '" + cut(tenant) + "'");
        }
        if (maxConcurrency != null && (maxConcurrency < 1 || maxConcurrency > MAX_CONCURRENCY)) {
            out.add("maxConcurrency must be between 1 and " + MAX_CONCURRENCY + ", got " + maxConcurrency);
        }
        OnFailure onFailure = OnFailure.FAIL_FAST;
        if (onFailureText != null) {
            try {
                onFailure = OnFailure.valueOf(onFailureText);
            } catch (IllegalArgumentException e) {
                out.add("onFailure '" + cut(onFailureText) + "' is not a known value; valid values are "
                        + Arrays.stream(OnFailure.values()).map(Enum::name).collect(Collectors.joining(", ")));
            }
        }
        String workflowTenant = tenant == null ? ownTenant : tenant;

        int count = nodesNode == null || nodesNode.isNull() ? 0 : nodesNode.size();
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
                throw malformed(field + " must be an object {\"id\",\"job\",\"dependsOn\"}, got " + describe(node));
            }
            String id = text(node, "id", field + ".id");
            List<String> dependsOn = dependsOn(node, field + ".dependsOn");
            graph.add(new WorkflowNode(id, dependsOn));
            JsonNode job = node.get("job");
            ObjectNode template = null;
            if (job == null || job.isNull()) {
                out.add(field + ".job is required: the node's job, as a POST /api/jobs body");
            } else if (!job.isObject()) {
                throw malformed(field + ".job must be an object (a POST /api/jobs body), got " + describe(job));
            } else {
                JobRequest request = jobRequest(job, field + ".job");
                List<String> violations = validator.violations(request, now);
                violations.forEach(violation -> out.add(field + ".job." + violation));
                if (request.runAt() != null) {
                    out.add(field + ".job.runAt is not allowed in a workflow: a node's job starts when its"
                            + " dependencies completed; use delayMs to start it later than that");
                }
                if (request.tenant() != null && !request.tenant().equals(workflowTenant)) {
                    out.add(field + ".job.tenant '" + cut(request.tenant()) + "' differs from the workflow's tenant '"
                            + workflowTenant + "'; a workflow's jobs take its tenant: give it as tenant");
                }
                if (violations.isEmpty()) {
                    template = template(request, workflowTenant);
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
        JsonNode root = tree(body, "{\"input\":{...}}");
        if (!root.isObject()) {
            throw malformed("request body must be a JSON object such as {\"input\":{...}}, got " + describe(root));
        }
        JsonNode input = root.get("input");
        return input == null || input.isNull() ? null : input;
    }

    private JsonNode tree(byte[] body, String example) {
        if (body == null || body.length == 0) {
            throw malformed("request body is empty; expected a JSON object such as " + example);
        }
        JsonNode root;
        try {
            root = strict.readTree(body);
        } catch (JsonProcessingException e) {
            throw malformed("request body is not valid JSON: " + e.getOriginalMessage() + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        } catch (IOException e) {
            throw malformed("request body could not be read: " + e.getMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw malformed("request body is empty; expected a JSON object such as " + example);
        }
        return root;
    }

    /** The job read as a submission body; its messages name fields under {@code field}. */
    private JobRequest jobRequest(JsonNode job, String field) {
        try {
            return jobs.readMember(job, field);
        } catch (ApiException e) {
            if (e.code() == ApiErrorCode.INVALID_JOB_REQUEST) {
                throw new ApiException(ApiErrorCode.INVALID_WORKFLOW_REQUEST, e.getMessage());
            }
            throw e;
        }
    }

    /**
     * A node's job as stored: the request as the reader normalised it, with what a later change of the service's
     * defaults must not change made explicit (its retries, its tenant), and without the fields it does not give.
     */
    private ObjectNode template(JobRequest request, String tenant) {
        ObjectNode tree = JsonColumns.mapper().valueToTree(request);
        List<String> absent = new ArrayList<>();
        tree.properties().forEach(field -> {
            if (field.getValue().isNull()) {
                absent.add(field.getKey());
            }
        });
        absent.forEach(tree::remove);
        if (request.maxRetryCount() == null) {
            tree.put("maxRetryCount", defaultRetryCount);
        }
        if (!JobControl.DEFAULT_TENANT.equals(tenant)) {
            tree.put("tenant", tenant);
        }
        return tree;
    }

    private static List<String> dependsOn(JsonNode node, String field) {
        JsonNode array = node.get("dependsOn");
        if (array == null || array.isNull()) {
            return List.of();
        }
        if (!array.isArray()) {
            throw malformed(field + " must be an array of node ids, got " + describe(array));
        }
        List<String> ids = new ArrayList<>(array.size());
        for (int d = 0; d < array.size(); d++) {
            JsonNode id = array.get(d);
            if (!id.isTextual()) {
                throw malformed(field + "[" + d + "] must be a node id (a string), got " + describe(id));
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
        JsonNode node = root.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw malformed(field + " must be a string, got " + describe(node));
        }
        String value = node.textValue();
        if (value.indexOf(0) >= 0) {
            // PostgreSQL stores NUL in no text column
            throw new ApiException(ApiErrorCode.INVALID_WORKFLOW_REQUEST, field + " must not contain the NUL"
                    + " character");
        }
        return value;
    }

    /** An integer member, null when absent or null; a 400 when it is not an integer. */
    private static Integer integer(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw malformed(field + " must be an integer between 1 and " + MAX_CONCURRENCY + ", got "
                    + (node.isIntegralNumber() ? node.asText() : describe(node)));
        }
        return node.intValue();
    }

    private static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a decimal number";
            case BOOLEAN -> "a boolean";
            case OBJECT, POJO -> "an object";
            case ARRAY -> "an array";
            case NULL, MISSING -> "null";
            case BINARY -> "binary data";
        };
    }

    private static String cut(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }

    private static ApiException invalid(List<String> problems) {
        List<String> shown = problems.size() > MAX_PROBLEMS ? problems.subList(0, MAX_PROBLEMS) : problems;
        String more = problems.size() > MAX_PROBLEMS ? "; and " + (problems.size() - MAX_PROBLEMS) + " more" : "";
        return new ApiException(ApiErrorCode.INVALID_WORKFLOW_REQUEST, String.join("; ", shown) + more);
    }

    private static ApiException malformed(String message) {
        return new ApiException(ApiErrorCode.MALFORMED_JSON, message);
    }
}
