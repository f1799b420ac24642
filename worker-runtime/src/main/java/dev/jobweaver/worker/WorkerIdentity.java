package dev.jobweaver.worker;

import dev.jobweaver.common.event.EventRules;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.util.UUID;

/**
 * The name of this worker instance: in its attempts, its outcome events and its heartbeats.
 * {@code jobweaver.worker.worker-id}, or the host's name with a random suffix (a pod's name in Kubernetes).
 */
@Singleton
public class WorkerIdentity {

    private final String id;

    @Inject
    public WorkerIdentity(WorkerConfig config) {
        this(config.workerId().orElseGet(WorkerIdentity::hostWithSuffix));
    }

    WorkerIdentity(String id) {
        if (id.length() > EventRules.MAX_WORKER_ID_LENGTH) {
            // Every row would be refused by execution_attempts.worker_id, and every record quarantined for it.
            throw new IllegalStateException("jobweaver.worker.worker-id must be at most "
                    + EventRules.MAX_WORKER_ID_LENGTH + " characters, got " + id.length());
        }
        this.id = id;
    }

    /** This worker's id. */
    public String id() {
        return id;
    }

    private static String hostWithSuffix() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "worker";
        }
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
