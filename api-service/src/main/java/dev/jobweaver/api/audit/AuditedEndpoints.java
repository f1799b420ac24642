package dev.jobweaver.api.audit;

import dev.jobweaver.api.security.Roles;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Which resource methods the audit log records, read from their annotations once per method: those whose lowest
 * allowed role ({@code @RolesAllowed} on the method, else on its class) is {@code operator} or {@code admin}; never a
 * {@code @PermitAll} one. With each its path template, as the class's and the method's {@code @Path} give it.
 */
final class AuditedEndpoints {

    /** The methods whose calls change something; a GET (or HEAD, OPTIONS) is never recorded. */
    static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

    /** {@code {name: regex}} in a template, reduced to {@code {name}}. */
    private static final Pattern PARAMETER_REGEX = Pattern.compile("\\{\\s*([^}:\\s]+)\\s*:[^}]*}");
    private static final int OPERATOR = Roles.ORDERED.indexOf(Roles.OPERATOR);

    private final ConcurrentHashMap<Method, Optional<String>> templates = new ConcurrentHashMap<>();

    /** The path template of {@code method} of {@code resource} when its calls are audited; empty otherwise. */
    Optional<String> audited(Class<?> resource, Method method) {
        return templates.computeIfAbsent(method, m -> isAudited(resource, m)
                ? Optional.of(template(resource, m)) : Optional.empty());
    }

    /** Whether {@code method}'s lowest allowed role is operator or higher. */
    static boolean isAudited(Class<?> resource, Method method) {
        if (method.isAnnotationPresent(PermitAll.class)) {
            return false;
        }
        RolesAllowed allowed = method.getAnnotation(RolesAllowed.class);
        if (allowed == null) {
            if (resource.isAnnotationPresent(PermitAll.class)) {
                return false;
            }
            allowed = resource.getAnnotation(RolesAllowed.class);
        }
        if (allowed == null || allowed.value().length == 0) {
            return false;
        }
        int lowest = Integer.MAX_VALUE;
        for (String role : allowed.value()) {
            // an unknown name ("**": any authenticated caller) is below every role
            lowest = Math.min(lowest, Roles.ORDERED.indexOf(role));
        }
        return lowest >= OPERATOR;
    }

    /** {@code /api/dead-letters/{jobId}/requeue}: the class's and the method's {@code @Path}, joined. */
    static String template(Class<?> resource, Method method) {
        StringBuilder path = new StringBuilder();
        append(path, resource.getAnnotation(Path.class));
        append(path, method.getAnnotation(Path.class));
        String template = path.isEmpty() ? "/" : path.toString();
        return PARAMETER_REGEX.matcher(template).replaceAll("{$1}");
    }

    private static void append(StringBuilder path, Path part) {
        if (part == null) {
            return;
        }
        String value = part.value().strip();
        while (value.startsWith("/")) {
            value = value.substring(1);
        }
        while (value.endsWith("/")) {
            value = value.substring(0, value.length() - 1);
        }
        if (!value.isEmpty()) {
            path.append('/').append(value);
        }
    }
}
