package dev.jobweaver.api.hook;

import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.api.security.crypto.SealedSecrets;
import dev.jobweaver.common.job.JobIds;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * Stores hooks (Panache, {@link Hook}): create with a new secret, read, list, delete. The secret is stored sealed
 * ({@link SealedSecrets}) and opened only where a call is verified. Called on the request's Vert.x event loop; the
 * session and the transaction are Hibernate Reactive's, opened on that context.
 */
@ApplicationScoped
public class HookService {

    @Inject HookRepository hooks;
    @Inject SealedSecrets secrets;

    /** Stores a new hook with a new secret; the answer carries the secret, the one time it is shown. */
    @WithSpan("create hook")
    public Uni<StoredHook> create(HookDefinition definition) {
        Hook hook = new Hook();
        hook.id = JobIds.next();
        hook.name = definition.name();
        hook.tenant = definition.tenant();
        switch (definition.target()) {
            case HookTarget.Job job -> hook.job = job.json();
            case HookTarget.Workflow workflow -> hook.workflowId = workflow.workflowId();
            case HookTarget.Event event -> hook.event = event.type();
        }
        String secret = HookSignature.newSecret();
        hook.sealedSecret = secrets.seal(secret, hook.id);
        hook.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return Panache.withTransaction(() -> hooks.persist(hook)).map(stored -> StoredHook.of(hook, secret));
    }

    /**
     * The hook with its secret (to verify a call), or null when there is none or it was deleted.
     *
     * @throws dev.jobweaver.api.security.crypto.SecretCipher.UnreadableSecretException (in the Uni) when its sealed
     *     secret does not open with the API's secret key
     */
    @WithSpan("find hook with secret")
    public Uni<StoredHook> findWithSecret(UUID id) {
        return Panache.withSession(() -> hooks.findLive(id))
                .map(found -> found == null ? null : StoredHook.of(found, secrets.open(found.sealedSecret, found.id)));
    }

    /**
     * The hook without its secret (to show or delete it), or null when there is none or it was deleted; a hook whose
     * secret no longer opens can still be read and deleted, and so made again.
     */
    @WithSpan("find hook")
    public Uni<StoredHook> find(UUID id) {
        return Panache.withSession(() -> hooks.findLive(id)).map(found -> found == null ? null : StoredHook.of(found,
                null));
    }

    /** A page of live hooks, newest first, of {@code tenant} or of every tenant (null). */
    @WithSpan("list hooks")
    public Uni<Slice<StoredHook>> list(String tenant, int page, int size) {
        return Panache.withSession(() -> Slice.read(hooks.page(tenant, page, size), () -> hooks.countLive(tenant),
                hook -> StoredHook.of(hook, null)));
    }

    /**
     * Deletes the hook: marks it deleted and forgets its secret, so that no call is verified (or answered but 404) from
     * the commit on. False when there is no such hook.
     */
    @WithSpan("delete hook")
    public Uni<Boolean> delete(UUID id) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return Panache.withTransaction(() -> hooks.deleteLive(id, hook -> {
            hook.deletedAt = now;
            hook.sealedSecret = null;
        }));
    }
}
