package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.JobBodies;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigInteger;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraints.Range;

/**
 * The body of {@code POST /api/dead-letters/{jobId}/requeue}, which is optional: both fields absent keep the job's
 * own. Unknown fields are ignored. The payload is checked later, against the job's type ({@link #payload}).
 *
 * @param maxRetryCount a {@link BigInteger} so that a number beyond any integer type is refused as out of range, as a
 *                      smaller one is, rather than as unreadable
 */
@Body(rule = ApiErrorCode.INVALID_DEAD_LETTER_REQUEST, example = RequeueRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = RequeueRequest.EXAMPLE_SHOWN)
@RegisterForReflection
public record RequeueRequest(
        @Schema(type = SchemaType.OBJECT, description = "a payload of the job's type, checked as POST /api/jobs"
                + " checks one; absent keeps the job's own")
        ObjectNode payload,
        @Schema(minimum = "0", maximum = "" + JobCommandEvent.MAX_RETRY_COUNT,
                description = "retries after the first attempt; absent keeps the job's own")
        @Range(min = 0, max = JobCommandEvent.MAX_RETRY_COUNT,
                message = "must be between {min} and {max}, got ${validatedValue}")
        BigInteger maxRetryCount) {

    static final String EXAMPLE = "{\"payload\":{...},\"maxRetryCount\":3}";
    static final String EXAMPLE_SHOWN =
            "{\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"again\"}]},\"maxRetryCount\":2}";

    /** The request of a body that has none: the job keeps its payload and retries. */
    static final RequeueRequest NONE = new RequeueRequest(null, null);

    /** {@link #maxRetryCount} as an int, null when absent; in range once valid. */
    Integer retries() {
        return maxRetryCount == null ? null : maxRetryCount.intValueExact();
    }

    /**
     * {@link #payload} checked and normalised as the payload of a submission of {@code type}, by the job bodies'
     * reader itself, so that a payload accepted here is one {@code POST /api/jobs} would accept: the same messages,
     * each naming a field under {@code payload.}, with this body's code.
     */
    JsonNode payload(JobType type, JobBodies jobs) {
        return jobs.payload(type, payload, ApiErrorCode.INVALID_DEAD_LETTER_REQUEST);
    }
}
