package dev.jobweaver.api.job;

import java.util.UUID;

/** A submission committed with its outbox row: the job exists and will reach Kafka (202). */
record AcceptedJob(UUID jobId, String traceId) {
}
