package dev.jobweaver.api.security;

import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Who may call each REST endpoint of the API, and whose objects it reaches: the table {@code docs/access.md} shows,
 * checked against the code by {@link AccessTableTest} and against the running API by {@link RoleAccessTest}.
 * {@link #endpoints()} reads what the code declares; {@link #EXPECTED} is what it must declare.
 */
public final class AccessTable {

    /** What a role-less caller sees: the endpoint needs no credentials. */
    public static final String PUBLIC = "public";

    /** Whose objects an endpoint reaches. */
    public enum Tenancy {
        /** The caller's own tenant; an admin's, every tenant. Another tenant's object is a 404; naming it, a 403. */
        OWN("own tenant (admin: all)"),
        /** Tenant management: admins only, of any tenant. */
        ADMIN("any tenant (admins only)"),
        /** The hook's own tenant: the call is signed with the hook's secret, no account involved. */
        SIGNED("the hook's tenant (signed call)"),
        /** No tenant's data. */
        NONE("none");

        final String shown;

        Tenancy(String shown) {
            this.shown = shown;
        }
    }

    /**
     * One endpoint's rule.
     *
     * @param method the HTTP method
     * @param path the path template, as {@code @Path} writes it
     * @param role the lowest role allowed, or {@link #PUBLIC}
     * @param tenancy whose objects it reaches
     */
    public record Access(String method, String path, String role, Tenancy tenancy) {

        /** {@code method path}, the endpoint's name. */
        public String endpoint() {
            return method + " " + path;
        }

        /** Whether {@code callerRole} (with the roles below it) may call it. */
        public boolean allows(String callerRole) {
            return PUBLIC.equals(role) || Roles.ORDERED.indexOf(callerRole) >= Roles.ORDERED.indexOf(role);
        }
    }

    /** Every endpoint of the API and its rule: a new endpoint must be added here (AccessTableTest fails until it is). */
    public static final List<Access> EXPECTED = List.of(
            row("POST", "/api/jobs", Roles.SUBMITTER, Tenancy.OWN),
            row("GET", "/api/jobs", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/jobs/{id}", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/jobs/{id}/attempts", Roles.VIEWER, Tenancy.OWN),
            row("POST", "/api/jobs/{id}/cancel", Roles.SUBMITTER, Tenancy.OWN),
            row("DELETE", "/api/jobs/{id}", Roles.SUBMITTER, Tenancy.OWN),

            row("POST", "/api/subscriptions", Roles.SUBMITTER, Tenancy.OWN),
            row("GET", "/api/subscriptions/{id}", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/subscriptions/{id}/deliveries", Roles.VIEWER, Tenancy.OWN),
            row("DELETE", "/api/subscriptions/{id}", Roles.SUBMITTER, Tenancy.OWN),

            row("GET", "/api/dead-letters", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/dead-letters/{jobId}", Roles.VIEWER, Tenancy.OWN),
            row("POST", "/api/dead-letters/{jobId}/requeue", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/dead-letters/{jobId}/discard", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/dead-letters/requeue", Roles.OPERATOR, Tenancy.OWN),

            row("POST", "/api/schedules", Roles.OPERATOR, Tenancy.OWN),
            row("GET", "/api/schedules", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/schedules/{id}", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/schedules/{id}/jobs", Roles.VIEWER, Tenancy.OWN),
            row("PUT", "/api/schedules/{id}", Roles.OPERATOR, Tenancy.OWN),
            row("DELETE", "/api/schedules/{id}", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/schedules/{id}/pause", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/schedules/{id}/resume", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/schedules/{id}/trigger", Roles.OPERATOR, Tenancy.OWN),

            row("POST", "/api/workflows", Roles.OPERATOR, Tenancy.OWN),
            row("GET", "/api/workflows", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/workflows/{id}", Roles.VIEWER, Tenancy.OWN),
            row("PUT", "/api/workflows/{id}", Roles.OPERATOR, Tenancy.OWN),
            row("DELETE", "/api/workflows/{id}", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/workflows/{id}/runs", Roles.OPERATOR, Tenancy.OWN),
            row("GET", "/api/workflows/{id}/runs", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/workflow-runs/{runId}", Roles.VIEWER, Tenancy.OWN),
            row("POST", "/api/workflow-runs/{runId}/cancel", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/workflow-runs/{runId}/retry", Roles.OPERATOR, Tenancy.OWN),

            row("POST", "/api/hooks", Roles.OPERATOR, Tenancy.OWN),
            row("GET", "/api/hooks", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/hooks/{id}", Roles.VIEWER, Tenancy.OWN),
            row("DELETE", "/api/hooks/{id}", Roles.OPERATOR, Tenancy.OWN),
            row("POST", "/api/hooks/{id}", PUBLIC, Tenancy.SIGNED),

            row("POST", "/api/events", Roles.SUBMITTER, Tenancy.OWN),

            row("GET", "/api/stats/overview", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/queues", Roles.VIEWER, Tenancy.OWN),
            row("GET", "/api/dashboard/config", Roles.VIEWER, Tenancy.NONE),

            row("PUT", "/api/tenants/{tenant}/limits", Roles.ADMIN, Tenancy.ADMIN),
            row("GET", "/api/tenants/{tenant}/limits", Roles.ADMIN, Tenancy.ADMIN),
            row("DELETE", "/api/tenants/{tenant}/limits", Roles.ADMIN, Tenancy.ADMIN),
            row("PUT", "/api/tenants/{tenant}/retention", Roles.ADMIN, Tenancy.ADMIN),
            row("GET", "/api/tenants/{tenant}/retention", Roles.ADMIN, Tenancy.ADMIN),
            row("POST", "/api/tenants/{tenant}/api-keys", Roles.ADMIN, Tenancy.ADMIN),
            row("GET", "/api/tenants/{tenant}/api-keys", Roles.ADMIN, Tenancy.ADMIN),
            row("DELETE", "/api/tenants/{tenant}/api-keys/{id}", Roles.ADMIN, Tenancy.ADMIN),
            row("GET", "/api/quarantine", Roles.ADMIN, Tenancy.ADMIN),
            row("POST", "/api/quarantine/{id}/replay", Roles.ADMIN, Tenancy.ADMIN),
            row("POST", "/api/quarantine/{id}/discard", Roles.ADMIN, Tenancy.ADMIN),
            row("GET", "/api/audit", Roles.ADMIN, Tenancy.ADMIN));

    private AccessTable() {
    }

    private static Access row(String method, String path, String role, Tenancy tenancy) {
        return new Access(method, path, role, tenancy);
    }

    /**
     * Every endpoint the code declares, with the role its annotations name: each public method with an HTTP method
     * annotation of each {@code @Path} class compiled under {@code dev.jobweaver.api}. {@code role} is null when the
     * method (and its class) carry none of {@code @RolesAllowed}, {@code @PermitAll}, {@code @DenyAll}; its tenancy is
     * unknown to the code, hence null.
     */
    public static List<Access> endpoints() {
        List<Access> found = new ArrayList<>();
        for (Class<?> resource : resources()) {
            String base = resource.getAnnotation(Path.class).value();
            for (Method method : resource.getMethods()) {
                String verb = httpMethod(method);
                if (verb == null || method.getDeclaringClass() != resource) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                found.add(new Access(verb, join(base, sub == null ? "" : sub.value()), role(method), null));
            }
        }
        found.sort(Comparator.comparing(Access::endpoint));
        return found;
    }

    /** The lowest role {@code method}'s annotations (or its class's) allow; {@code DenyAll} reads as "denied". */
    private static String role(Method method) {
        for (java.lang.reflect.AnnotatedElement element : List.of(method, method.getDeclaringClass())) {
            if (element.isAnnotationPresent(PermitAll.class)) {
                return PUBLIC;
            }
            if (element.isAnnotationPresent(DenyAll.class)) {
                return "denied";
            }
            RolesAllowed allowed = element.getAnnotation(RolesAllowed.class);
            if (allowed != null) {
                // several roles: the lowest of them is the one that matters, as every higher role implies it
                return Stream.of(allowed.value()).min(Comparator.comparingInt(r -> Roles.ORDERED.indexOf(r) < 0
                        ? Integer.MAX_VALUE : Roles.ORDERED.indexOf(r))).orElse(null);
            }
        }
        return null;
    }

    private static String httpMethod(Method method) {
        if (!Modifier.isPublic(method.getModifiers())) {
            return null;
        }
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    private static String join(String base, String sub) {
        String path = ("/" + base + "/" + sub).replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** The {@code @Path} classes compiled from the API's sources (not its tests'). */
    private static List<Class<?>> resources() {
        java.nio.file.Path classes;
        try {
            // Roles is a main class: its code source is the main classes directory
            classes = java.nio.file.Path.of(Roles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        java.nio.file.Path root = classes.resolve("dev/jobweaver/api");
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException("no compiled API classes under " + root);
        }
        List<Class<?>> found = new ArrayList<>();
        try (Stream<java.nio.file.Path> files = Files.walk(root)) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replace('\\', '.');
                name = name.substring(0, name.length() - ".class".length());
                Class<?> type = Class.forName(name, false, AccessTable.class.getClassLoader());
                if (type.isAnnotationPresent(Path.class)) {
                    found.add(type);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("no @Path class under " + root);
        }
        return found;
    }

    /** {@code docs/access.md}: the table as people read it. */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("""
                # Access: roles and tenants per endpoint

                Generated from the code by `AccessTableTest` (api-service); do not edit by hand. After changing an
                endpoint's `@RolesAllowed`, or adding one, update `AccessTable.EXPECTED` and rewrite this file:

                ```
                ./mvnw -pl api-service test -Dtest=AccessTableTest -Djobweaver.write-access-doc=true
                ```

                Roles are ordered, each allowing what the ones before it allow: `viewer` reads; `submitter` also
                submits, cancels and deletes jobs and manages notification subscriptions; `operator` also handles dead
                letters, schedules, workflows (and their runs) and inbound hooks; `admin` also manages tenants' limits,
                retention and API keys, reads the audit log and reviews quarantined records. An endpoint names its lowest
                role; a REST endpoint naming none is refused to everyone
                (`quarkus.security.jaxrs.deny-unannotated-endpoints=true`).

                Without credentials, or with invalid ones: `401 API.UNAUTHENTICATED`. A role too low:
                `403 API.FORBIDDEN`. Tenants: a viewer, submitter or operator sees its own tenant only, an admin every
                tenant. Another tenant's object answers the endpoint's usual `404` (as if it did not exist); a list is
                limited to the caller's tenant; naming another tenant in a body or a `tenant` filter is
                `403 API.TENANT_FORBIDDEN`; a creation that names no tenant goes to the caller's own. A subscription to
                a job type hears every tenant's jobs, so only an admin may make one.

                Why these roles: a notification subscription follows jobs, so it is a submitter's to make and delete;
                dead letters are read by a viewer and requeued or discarded by an operator; starting and cancelling a
                workflow run is an operator's, as the workflow is, while publishing an application event is a
                submitter's: it starts only the runs the tenant's operators chose by the workflows' triggers; a
                tenant's limits and retention are tenant management, so even
                reading them is an admin's; a quarantined record belongs to no tenant (it may not even parse) and its
                bytes may hold any tenant's data, so reading, replaying and discarding one are an admin's; the
                dashboard's settings hold no tenant's data and are read by any
                signed-in role. An inbound hook's call needs no account: it is signed with the hook's secret.

                Health, metrics and the OpenAPI document (`/q/*`) and the dashboard's static files are not REST
                endpoints of the API and need no credentials.

                | Method | Path | Lowest role | viewer | submitter | operator | admin | Tenant |
                |---|---|---|---|---|---|---|---|
                """);
        for (Access access : EXPECTED) {
            out.append("| ").append(access.method()).append(" | `").append(access.path()).append("` | ")
                    .append(access.role()).append(" |");
            for (String role : Roles.ORDERED) {
                out.append(' ').append(access.allows(role) ? "yes" : "no").append(" |");
            }
            out.append(' ').append(access.tenancy().shown).append(" |\n");
        }
        return out.toString();
    }
}
