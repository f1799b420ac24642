package dev.jobweaver.api.hook;

/**
 * A hook as a valid {@code POST /api/hooks} body defines it.
 *
 * @param tenant the owning tenant: the job template's, or {@code default}
 */
record HookDefinition(String name, String tenant, HookTarget target) {
}
