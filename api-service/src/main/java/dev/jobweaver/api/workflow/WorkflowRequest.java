package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.EnumName;
import dev.jobweaver.api.platform.http.EventTypeName;
import dev.jobweaver.api.platform.http.Expected;
import dev.jobweaver.api.platform.http.Name;
import dev.jobweaver.api.platform.http.TenantName;
import dev.jobweaver.common.job.StepRules;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowGraph;
import dev.jobweaver.common.workflow.WorkflowNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraints.Range;

/**
 * The body of {@code POST} and {@code PUT /api/workflows}. Unknown fields are ignored. The graph and the nodes' jobs
 * need {@link JobBodies} and all the nodes at once, so {@link #definition} checks them once the members' own rules
 * hold: the graph's rules ({@link WorkflowGraph#problems}: ids, unknown dependencies, a cycle, at most 100 nodes), and
 * every node's job read and checked exactly as a {@code POST /api/jobs} body is, its messages naming the field under
 * {@code nodes[i].job.}. Each job is stored normalised, with its retries and the workflow's tenant explicit. Its
 * {@code triggers} name event types, each once ({@code triggers[i].event}).
 *
 * @param maxConcurrency a {@link BigInteger} so that a number beyond any integer type is refused as out of range
 */
@Body(rule = ApiErrorCode.INVALID_WORKFLOW_REQUEST, example = WorkflowRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = WorkflowRequest.EXAMPLE_SHOWN)
@RegisterForReflection
public record WorkflowRequest(
        @Schema(required = true, minLength = 1, maxLength = MAX_NAME_LENGTH)
        @Checked(value = Name.class, max = MAX_NAME_LENGTH) String name,
        @Schema(pattern = "[a-z0-9][a-z0-9-]{0,62}", description = "the tenant of the workflow and its jobs (default"
                + " the caller's)") @Checked(TenantName.class) String tenant,
        @Schema(implementation = OnFailure.class, defaultValue = "FAIL_FAST") @EnumName(OnFailure.class)
        String onFailure,
        @Schema(minimum = "1", maximum = "" + MAX_CONCURRENCY, description = "how many of a run's jobs run at once"
                + " (default no bound)")
        @Expected("an integer between 1 and " + MAX_CONCURRENCY)
        @Range(min = 1, max = MAX_CONCURRENCY, message = "must be between {min} and {max}, got ${validatedValue}")
        BigInteger maxConcurrency,
        @Schema(required = true, description = "1 to 100 nodes") @Expected("an array of nodes")
        List<Node> nodes,
        @Schema(description = "the application events (POST /api/events) each of which starts a run, at most "
                + MAX_TRIGGERS) @Expected("an array of {\"event\":\"<type>\"}")
        List<Trigger> triggers) {

    /** The longest name. */
    static final int MAX_NAME_LENGTH = 200;
    /** The highest {@code maxConcurrency}. */
    static final int MAX_CONCURRENCY = 10_000;
    /** The most triggers a workflow has. */
    static final int MAX_TRIGGERS = 20;
    /** The most problems one answer lists. */
    private static final int MAX_PROBLEMS = 20;
    static final String EXAMPLE = "{\"name\":\"etl\",\"nodes\":[{\"id\":\"extract\",\"job\":{...}}]}";
    static final String EXAMPLE_SHOWN = """
            {"name":"etl","maxConcurrency":5,"onFailure":"FAIL_FAST","nodes":[\
            {"id":"extract","job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"extract"}]}}},\
            {"id":"load","dependsOn":["extract"],\
            "job":{"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"load"}]}}}]}""";

    /**
     * A node of the graph.
     *
     * @param job the node's job, as its tree: read by {@link JobBodies}, not here, so that its messages are a
     *            submission's
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Node(
            @Schema(required = true, description = "unique in the workflow") String id,
            @Schema(required = true, type = SchemaType.OBJECT, implementation = JobRequest.class,
                    description = "the node's job, a POST /api/jobs body without runAt")
            @Expected("an object (a POST /api/jobs body)") ObjectNode job,
            @Schema(description = "the ids of the nodes this one waits for") @Expected("an array of node ids")
            List<String> dependsOn) {

        List<String> dependencies() {
            return dependsOn == null ? List.of() : dependsOn;
        }
    }

    /**
     * A trigger: an application event's type, each event of which (of the workflow's tenant) starts a run.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Trigger(
            @Schema(required = true, pattern = EventTypeName.PATTERN, description = "an event type, e.g."
                    + " order.created") @Expected("an event type (a string)") String event) {
    }

    /**
     * The definition, valid at {@code now}, or an {@link ApiException} naming every rule the graph and the nodes' jobs
     * break; its tenant {@code ownTenant} (the caller's) when the body names none. Only for a body whose members are
     * valid.
     */
    WorkflowDefinition definition(JobBodies jobs, Instant now, String ownTenant) {
        List<String> out = new ArrayList<>();
        String workflowTenant = tenant == null ? ownTenant : tenant;
        int count = nodes == null ? 0 : nodes.size();
        if (count > WorkflowGraph.MAX_NODES) {
            // before the nodes' jobs are read: their problems would drown this one
            out.add("nodes: " + count + " nodes, at most " + WorkflowGraph.MAX_NODES + " are allowed");
            throw invalid(out);
        }
        List<WorkflowNode> graph = new ArrayList<>(count);
        List<WorkflowDefinition.Node> defined = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Node node = nodes.get(i);
            String field = "nodes[" + i + "]";
            if (node == null) {
                throw new ApiException(ApiErrorCode.MALFORMED_JSON, field + " must be an object, got null");
            }
            // Jackson reads a list as an ArrayList, which takes a search for null (List.of() would not)
            int missing = node.dependsOn() == null ? -1 : node.dependsOn().indexOf(null);
            if (missing >= 0) {
                throw new ApiException(ApiErrorCode.MALFORMED_JSON, field + ".dependsOn[" + missing
                        + "] must be a node id (a string), got null");
            }
            if (StepRules.hasNul(node.id())) {
                // PostgreSQL stores NUL in no text column
                out.add(field + ".id must not contain the NUL character");
            }
            graph.add(new WorkflowNode(node.id(), node.dependencies()));
            ObjectNode template = null;
            if (node.job() == null) {
                out.add(field + ".job is required: the node's job, as a POST /api/jobs body");
            } else {
                JobRequest request = jobs.member(node.job(), field + ".job", ApiErrorCode.INVALID_WORKFLOW_REQUEST);
                List<String> violations = jobs.violations(request, now);
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
                    template = jobs.template(request, workflowTenant);
                }
            }
            defined.add(new WorkflowDefinition.Node(node.id(), template, node.dependencies()));
        }
        out.addAll(WorkflowGraph.problems(graph, MAX_PROBLEMS));
        List<String> events = triggerEvents(out);
        if (!out.isEmpty()) {
            throw invalid(out);
        }
        return new WorkflowDefinition(name, workflowTenant, List.copyOf(defined),
                maxConcurrency == null ? null : maxConcurrency.intValueExact(),
                onFailure == null ? OnFailure.FAIL_FAST : OnFailure.valueOf(onFailure), events);
    }

    /** The triggers' event types, each once, in the order given; what is wrong with them added to {@code out}. */
    private List<String> triggerEvents(List<String> out) {
        if (triggers == null) {
            return List.of();
        }
        if (triggers.size() > MAX_TRIGGERS) {
            out.add("triggers: " + triggers.size() + " triggers, at most " + MAX_TRIGGERS + " are allowed");
            return List.of();
        }
        List<String> events = new ArrayList<>(triggers.size());
        for (int i = 0; i < triggers.size(); i++) {
            Trigger trigger = triggers.get(i);
            String field = "triggers[" + i + "]";
            if (trigger == null) {
                out.add(field + " must be an object {\"event\":\"<type>\"}, got null");
            } else if (trigger.event() == null) {
                out.add(field + ".event is required: the type of the application events that start a run");
            } else if (!EventTypeName.isValid(trigger.event())) {
                out.add(field + ".event " + EventTypeName.problem(trigger.event()));
            } else if (events.contains(trigger.event())) {
                out.add(field + ".event '" + trigger.event() + "' is given twice");
            } else {
                events.add(trigger.event());
            }
        }
        return List.copyOf(events);
    }

    private static ApiException invalid(List<String> problems) {
        List<String> shown = problems.size() > MAX_PROBLEMS ? problems.subList(0, MAX_PROBLEMS) : problems;
        String more = problems.size() > MAX_PROBLEMS ? "; and " + (problems.size() - MAX_PROBLEMS) + " more" : "";
        return new ApiException(ApiErrorCode.INVALID_WORKFLOW_REQUEST, String.join("; ", shown) + more);
    }
}
