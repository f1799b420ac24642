package dev.jobweaver.api.hook;

import java.time.Instant;
import java.util.UUID;

/**
 * A hook as stored, detached from its session.
 *
 * @param secret the signing secret in clear (null in lists); shown only in the answer to the creation, never logged
 */
record StoredHook(UUID id, String name, String tenant, HookTarget target, String secret, Instant createdAt) {

    /** A copy of {@code hook}'s state, with {@code secret} (opened), or null where it is not needed. */
    public static StoredHook of(Hook hook, String secret) {
        return new StoredHook(hook.id, hook.name, hook.tenant, HookTarget.of(hook.job, hook.workflowId, hook.event),
                secret, hook.createdAt);
    }

    @Override
    public String toString() {
        // the secret never reaches a log line
        return "StoredHook[id=" + id + ", name=" + name + ", tenant=" + tenant + ", target=" + target + "]";
    }
}
