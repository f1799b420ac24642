package dev.jobweaver.api.platform.http;

import dev.jobweaver.common.error.ErrorCode;

/** Errors the API answers with; each maps to exactly one HTTP status. */
public enum ApiErrorCode implements ErrorCode {
    /** The request body parsed but breaks a rule (the message names the field). */
    INVALID_JOB_REQUEST(400),
    /** An API key's body, or the tenant in its path, breaks a rule (the message names the field). */
    INVALID_API_KEY_REQUEST(400),
    /**
     * No credentials, or credentials that are not valid: an unknown, revoked or expired API key, a JWT that is
     * expired, wrongly signed, unsigned or from another issuer. The message never repeats the credential.
     */
    UNAUTHENTICATED(401),
    /** The caller is authenticated but its roles do not allow this action. */
    FORBIDDEN(403),
    /** The caller names a tenant (in a body, a filter or a path) other than its own and is not an admin. */
    TENANT_FORBIDDEN(403),
    /** The body is not JSON, or a value has the wrong type. */
    MALFORMED_JSON(400),
    /** A path or query parameter is not valid (a job id that is not a UUID, a negative page, ...). */
    INVALID_PARAMETER(400),
    /** A schedule's body parsed but breaks a rule (the message names the field). */
    INVALID_SCHEDULE_REQUEST(400),
    /** A subscription's body parsed but breaks a rule (the message names the field). */
    INVALID_SUBSCRIPTION_REQUEST(400),
    /** An inbound hook's body parsed but breaks a rule (the message names the field). */
    INVALID_HOOK_REQUEST(400),
    /** An application event's body parsed but breaks a rule (the message names the field). */
    INVALID_EVENT_REQUEST(400),
    /**
     * A call of an inbound hook whose {@code X-JobWeaver-Timestamp} or {@code X-JobWeaver-Signature} is missing,
     * malformed, out of the time window or wrong; the message says which header, never what in it is wrong.
     */
    HOOK_SIGNATURE_REJECTED(401),
    /** A tenant limit's body, or the tenant in its path, breaks a rule (the message names the field). */
    INVALID_TENANT_LIMIT_REQUEST(400),
    /** A retention's body, or the tenant in its path, breaks a rule (the message names the field). */
    INVALID_RETENTION_REQUEST(400),
    /** A workflow's body, or a run's, parsed but breaks a rule (the message names the field and the node). */
    INVALID_WORKFLOW_REQUEST(400),
    /** A dead letter's filter, requeue or discard body parsed but breaks a rule (the message names the field). */
    INVALID_DEAD_LETTER_REQUEST(400),
    /** No job has this id. */
    JOB_NOT_FOUND(404),
    /** No schedule has this id. */
    SCHEDULE_NOT_FOUND(404),
    /** No subscription has this id. */
    SUBSCRIPTION_NOT_FOUND(404),
    /** No inbound hook has this id, or it was deleted. */
    HOOK_NOT_FOUND(404),
    /** No API key has this id under this tenant. */
    API_KEY_NOT_FOUND(404),
    /** No workflow has this id (or this version), or it was deleted. */
    WORKFLOW_NOT_FOUND(404),
    /** No workflow run has this id. */
    WORKFLOW_RUN_NOT_FOUND(404),
    /** The tenant has no concurrency limit. */
    TENANT_LIMIT_NOT_FOUND(404),
    /** No dead letter has this job id: the job never exhausted its retries, or it was deleted. */
    DEAD_LETTER_NOT_FOUND(404),
    /** No quarantined record has this id. */
    QUARANTINED_RECORD_NOT_FOUND(404),
    /** No such endpoint. */
    NOT_FOUND(404),
    /** The endpoint exists, the HTTP method does not. */
    METHOD_NOT_ALLOWED(405),
    /** The Accept header asks for something other than JSON. */
    NOT_ACCEPTABLE(406),
    /** The same Idempotency-Key was used within 24 h with a different body. */
    IDEMPOTENCY_CONFLICT(409),
    /** The tenant published an event with this id before, of another type or with other data. */
    EVENT_ID_CONFLICT(409),
    /** The job has finished; only a PENDING or RUNNING job can be cancelled. */
    JOB_NOT_CANCELLABLE(409),
    /** The job has not finished; only a finished job can be deleted. */
    JOB_NOT_FINISHED(409),
    /** The workflow run has ended; only a run that has not can be cancelled. */
    WORKFLOW_RUN_NOT_CANCELLABLE(409),
    /** The workflow run has not ended FAILED or CANCELLED; only such a run can be retried. */
    WORKFLOW_RUN_NOT_RETRYABLE(409),
    /** The dead letter is REQUEUED or DISCARDED; only an OPEN one can be requeued or discarded. */
    DEAD_LETTER_NOT_OPEN(409),
    /** The quarantined record was replayed or discarded already; only a KEPT one can be replayed or discarded. */
    QUARANTINED_RECORD_NOT_KEPT(409),
    /**
     * The quarantined record names no origin topic (it came to jobweaver-quarantine without the quarantine headers), so
     * there is nowhere to replay it; it can be discarded.
     */
    QUARANTINED_RECORD_NOT_REPLAYABLE(409),
    /** The body is larger than the configured limit. */
    PAYLOAD_TOO_LARGE(413),
    /** The tenant submits faster than its rate limit allows; {@code Retry-After} says when a token is back. */
    RATE_LIMITED(429),
    /** The body is not {@code application/json}. */
    UNSUPPORTED_MEDIA_TYPE(415),
    /** Kafka did not take the job's event in time; nothing was accepted, retry after the given delay. */
    SERVICE_UNAVAILABLE(503),
    /** Too many submission bytes are being handled at once; nothing was read or stored, retry after the given delay. */
    OVERLOADED(503),
    /**
     * A hook's stored secret does not open with the API's secret key ({@code jobweaver.security.secret-key} was
     * changed or lost), so no call to it can be verified; an operator restores the key or makes the hook again.
     */
    SECRET_UNREADABLE(500),
    /** A fault on our side; the message never carries a stack trace. */
    INTERNAL_ERROR(500);

    private final int httpStatus;

    ApiErrorCode(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    /** The HTTP status this error is answered with. */
    public int httpStatus() {
        return httpStatus;
    }

    @Override
    public String namespace() {
        return "API";
    }
}
