package dev.jobweaver.api.security;

import java.util.List;
import java.util.Set;

/**
 * The four roles and their order: each role may do what the roles before it may. A resource method names the lowest
 * role it needs ({@code @RolesAllowed(Roles.OPERATOR)}); {@link #upTo} gives an identity every role its own implies, so
 * an admin passes a check for {@code viewer}.
 */
public final class Roles {

    /** Reads jobs, schedules, workflows, runs, hooks, subscriptions, dead letters and statistics of its tenant. */
    public static final String VIEWER = "viewer";
    /** Also submits, cancels and deletes jobs, and manages its own notification subscriptions. */
    public static final String SUBMITTER = "submitter";
    /** Also handles dead letters, schedules, workflows (and their runs) and inbound hooks. */
    public static final String OPERATOR = "operator";
    /** Also manages tenants' limits and API keys and reads the audit log; sees every tenant. */
    public static final String ADMIN = "admin";

    /** Lowest first. */
    public static final List<String> ORDERED = List.of(VIEWER, SUBMITTER, OPERATOR, ADMIN);

    private Roles() {
    }

    /** Whether {@code role} is one of the four. */
    public static boolean isKnown(String role) {
        return ORDERED.contains(role);
    }

    /** The roles {@code granted} imply: each granted role and every lower one. Unknown names are dropped. */
    public static Set<String> upTo(Iterable<String> granted) {
        int highest = -1;
        for (String role : granted) {
            highest = Math.max(highest, ORDERED.indexOf(role));
        }
        return Set.copyOf(ORDERED.subList(0, highest + 1));
    }

    /** The highest of {@code roles}, or null when none is known. */
    public static String highest(Iterable<String> roles) {
        int highest = -1;
        for (String role : roles) {
            highest = Math.max(highest, ORDERED.indexOf(role));
        }
        return highest < 0 ? null : ORDERED.get(highest);
    }
}
