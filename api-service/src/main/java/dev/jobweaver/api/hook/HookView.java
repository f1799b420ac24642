package dev.jobweaver.api.hook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.store.JsonColumns;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A hook as the API shows it: its name, where to call it and what a call makes. {@code secret} only in the answer to
 * its creation, never again.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HookView(UUID id, String name, String tenant,
                       @Schema(description = "where to POST signed calls: /api/hooks/{id}, absolute when the API's"
                               + " public base URL is configured") String url,
                       @Schema(type = SchemaType.OBJECT, description = "the job each call makes (a POST /api/jobs"
                               + " body); the call's body becomes its payload's input") JsonNode job,
                       @Schema(description = "the workflow each call starts a run of") UUID workflowId,
                       @Schema(description = "the type of the application event each call publishes, the call's body"
                               + " its data") String event,
                       Instant createdAt,
                       @Schema(description = "the HMAC-SHA256 key of the calls' X-JobWeaver-Signature (its UTF-8"
                               + " bytes); shown once, in the answer to the creation") String secret) {

    /** {@code hook} without its secret; {@code url} as the resource computes it. */
    static HookView of(StoredHook hook, String url) {
        JsonNode job = null;
        UUID workflowId = null;
        String event = null;
        switch (hook.target()) {
            case HookTarget.Job template -> job = JsonColumns.tree(template.json());
            case HookTarget.Workflow workflow -> workflowId = workflow.workflowId();
            case HookTarget.Event published -> event = published.type();
        }
        return new HookView(hook.id(), hook.name(), hook.tenant(), url, job, workflowId, event, hook.createdAt(),
                null);
    }

    /** {@code hook} with its secret: the answer to its creation. */
    static HookView withSecret(StoredHook hook, String url) {
        HookView view = of(hook, url);
        return new HookView(view.id, view.name, view.tenant, view.url, view.job, view.workflowId, view.event,
                view.createdAt, hook.secret());
    }

    @Override
    public String toString() {
        // the secret never reaches a log line
        return "HookView[id=" + id + ", name=" + name + ", url=" + url + "]";
    }
}
