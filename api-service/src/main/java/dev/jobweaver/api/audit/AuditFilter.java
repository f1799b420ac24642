package dev.jobweaver.api.audit;

import dev.jobweaver.api.security.Caller;
import dev.jobweaver.api.security.Callers;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import java.lang.reflect.Method;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Records every call of an audited endpoint ({@link AuditedEndpoints}: operator or admin, POST, PUT, PATCH or DELETE)
 * in the audit log, whatever it was answered: done, refused (401, 403) or a client error. The answer waits for its
 * entry, so an action that was answered is recorded; an entry that cannot be written is counted and the answer goes
 * out all the same ({@link AuditLog}).
 *
 * <p>An entry holds who called, the path's template, the object and tenant the path names (a creation's object: the
 * last segment of its {@code Location}), the status and the trace id; never a body, a header, a credential or the
 * query string.
 */
public class AuditFilter {

    /** The path parameters that name the object acted on, in the order looked for. */
    private static final List<String> OBJECT_PARAMETERS = List.of("jobId", "id", "runId");
    private static final String TENANT_PARAMETER = "tenant";
    private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}");

    private final AuditLog log;
    private final CurrentIdentityAssociation identities;
    private final AuditedEndpoints endpoints = new AuditedEndpoints();

    public AuditFilter(AuditLog log, CurrentIdentityAssociation identities) {
        this.log = log;
        this.identities = identities;
    }

    /**
     * The entry's write, which the answer waits for; null (nothing to wait for: the request is not even suspended,
     * so {@code POST /api/jobs} and every read pay nothing) when the call is not audited.
     */
    @ServerResponseFilter
    public Uni<Void> record(ContainerRequestContext request, ContainerResponseContext response,
                            ResourceInfo resource) {
        if (!AuditedEndpoints.MUTATING.contains(request.getMethod()) || resource == null) {
            return null;
        }
        Method method = resource.getResourceMethod();
        Class<?> type = resource.getResourceClass();
        if (method == null || type == null) {
            return null;
        }
        Optional<String> template = endpoints.audited(type, method);
        if (template.isEmpty()) {
            return null;
        }
        AuditEntry entry = new AuditEntry();
        entry.id = UUID.randomUUID();
        entry.at = Instant.now().truncatedTo(ChronoUnit.MICROS);
        entry.method = request.getMethod();
        entry.path = cut(template.get(), 300);
        MultivaluedMap<String, String> parameters = request.getUriInfo().getPathParameters();
        entry.objectId = cut(objectId(parameters, response), 100);
        entry.tenant = cut(parameters.getFirst(TENANT_PARAMETER), 100);
        entry.status = response.getStatus();
        entry.traceId = traceId(request);
        return identities.getDeferredIdentity()
                .onFailure().recoverWithNull() // the credentials failed: the 401 is recorded as anonymous
                .chain(identity -> {
                    actor(entry, identity);
                    return log.record(entry);
                });
    }

    private static void actor(AuditEntry entry, SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            entry.actor = "anonymous";
            return;
        }
        Caller caller = Callers.of(identity);
        entry.actor = cut(caller.name(), 200);
        entry.actorTenant = caller.tenant();
        entry.actorRole = caller.highestRole();
        if (entry.tenant == null && !caller.allTenants()) {
            // a caller confined to its tenant acts on that tenant's objects only
            entry.tenant = caller.tenant();
        }
    }

    /** The object the path names; for a creation, the one its {@code Location} names. */
    private static String objectId(MultivaluedMap<String, String> parameters, ContainerResponseContext response) {
        for (String name : OBJECT_PARAMETERS) {
            String value = parameters.getFirst(name);
            if (value != null) {
                return value;
            }
        }
        for (String name : parameters.keySet()) {
            if (!TENANT_PARAMETER.equals(name)) {
                return parameters.getFirst(name);
            }
        }
        Object location = response.getHeaders().getFirst(HttpHeaders.LOCATION);
        if (response.getStatus() == 201 && location != null) {
            String path = location.toString();
            int query = path.indexOf('?');
            path = query < 0 ? path : path.substring(0, query);
            return path.substring(path.lastIndexOf('/') + 1);
        }
        return null;
    }

    /** The request's trace id: its span's, else its {@code traceparent}'s (traces off); null when neither. */
    private static String traceId(ContainerRequestContext request) {
        SpanContext span = Span.current().getSpanContext();
        if (span.isValid()) {
            return span.getTraceId();
        }
        String traceparent = request.getHeaderString("traceparent");
        if (traceparent != null) {
            var matcher = TRACEPARENT.matcher(traceparent.strip());
            if (matcher.matches()) {
                return matcher.group(1);
            }
        }
        return null;
    }

    private static String cut(String value, int length) {
        return value == null || value.length() <= length ? value : value.substring(0, length);
    }
}
