package dev.jobweaver.api.notification;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.JobTypeName;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.Uuid;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The body of {@code POST /api/subscriptions}: exactly one target, the events and the URL deliveries go to. Unknown
 * fields are ignored, as for jobs. Whether a {@code jobId} names an existing job and whether the URL's destination is
 * allowed are the service's to decide (they need the database and DNS).
 */
@Body(rule = ApiErrorCode.INVALID_SUBSCRIPTION_REQUEST, example = NewSubscription.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Checked(NewSubscription.ExactlyOneTarget.class)
@Schema(example = NewSubscription.EXAMPLE)
public record NewSubscription(
        @Schema(format = "uuid") @Checked(Uuid.class) String jobId,
        @Schema(format = "uuid") @Checked(Uuid.class) String scheduleId,
        @Schema(format = "uuid") @Checked(Uuid.class) String workflowId,
        @Schema(pattern = JobType.PATTERN) @Checked(JobTypeName.class) String jobType,
        @Schema(required = true, minItems = 1, enumeration = {"SCHEDULED", "STARTED", "RETRYING", "COMPLETED", "FAILED",
                "CANCELLED", "workflow.completed", "workflow.failed", "workflow.cancelled"}, description = "a job's"
                + " changes; the workflow.* events (a run's end) with a workflowId only")
        @JsonSetter(contentNulls = Nulls.FAIL) @Checked(Events.class) List<String> events,
        @Schema(required = true, maxLength = MAX_URL_LENGTH) @Checked(DeliveryUrl.class) String url) {

    /** The targets, exactly one of which a subscription names. */
    static final List<String> TARGETS = List.of("jobId", "scheduleId", "workflowId", "jobType");
    /** Longest URL. */
    static final int MAX_URL_LENGTH = 2048;
    static final String EXAMPLE = "{\"jobId\":\"...\",\"events\":[\"COMPLETED\"],\"url\":\"https://...\"}";

    private static final String VALID_EVENTS = Arrays.stream(NotificationEvent.values())
            .map(NotificationEvent::wireName).collect(Collectors.joining(", "));

    /** The request as the service takes it; valid once the record is. */
    SubscriptionRequest request() {
        return new SubscriptionRequest(uuid(jobId), uuid(scheduleId), uuid(workflowId),
                jobType == null ? null : JobType.of(jobType),
                events.stream().map(NotificationEvent::named).toList(), URI.create(url));
    }

    private List<String> targetsGiven() {
        return Stream.of(jobId != null ? "jobId" : null, scheduleId != null ? "scheduleId" : null,
                workflowId != null ? "workflowId" : null, jobType != null ? "jobType" : null)
                .filter(name -> name != null).toList();
    }

    private static UUID uuid(String value) {
        return value == null ? null : UUID.fromString(value);
    }

    private static String cut(String value) {
        return ClientText.cut(value, 60);
    }

    /** Exactly one of {@link #TARGETS}; a run's events ({@code workflow.*}) with a {@code workflowId} only. */
    @RegisterForReflection
    static final class ExactlyOneTarget implements Checked.Rule<NewSubscription> {

        @Override
        public boolean isValid(NewSubscription body, Checked constraint, HibernateConstraintValidatorContext context) {
            List<String> given = body.targetsGiven();
            if (given.size() != 1) {
                context.addMessageParameter("given", given.isEmpty() ? "none" : String.join(" and ", given));
                return refuse(context,
                        "exactly one of jobId, scheduleId, workflowId, jobType is required, got {given}");
            }
            if (body.workflowId() == null && body.events() != null) {
                // a run's end concerns a workflow: a job, a schedule or a type has no run to end
                for (String event : body.events()) {
                    NotificationEvent named = NotificationEvent.named(event);
                    if (named != null && named.ofRun()) {
                        context.addMessageParameter("event", event);
                        return refuse(context, "events: '{event}' is the end of a workflow run, which only a"
                                + " subscription to a workflowId hears");
                    }
                }
            }
            return true;
        }
    }

    /** At least one event, each a {@link NotificationEvent} named once. */
    @RegisterForReflection
    static final class Events implements Checked.Rule<List<String>> {

        private static final Set<String> KNOWN = Arrays.stream(NotificationEvent.values())
                .map(NotificationEvent::wireName).collect(Collectors.toUnmodifiableSet());

        @Override
        public String required() {
            return "is required: a non-empty array of " + VALID_EVENTS;
        }

        @Override
        public boolean isValid(List<String> events, Checked constraint, HibernateConstraintValidatorContext context) {
            context.addMessageParameter("valid", VALID_EVENTS);
            if (events.isEmpty()) {
                return refuse(context, "must not be empty; valid events are {valid}");
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < events.size(); i++) {
                String event = events.get(i);
                context.addMessageParameter("event", cut(event));
                String template = !KNOWN.contains(event) ? "'{event}' is not a known event; valid events are {valid}"
                        : !seen.add(event) ? "'{event}' is given twice" : null;
                if (template != null) {
                    context.disableDefaultConstraintViolation();
                    context.buildConstraintViolationWithTemplate(template)
                            .addBeanNode().inIterable().atIndex(i)
                            .addConstraintViolation();
                    return false;
                }
            }
            return true;
        }
    }

    /** An absolute http or https URL with a host and no credentials, at most {@link #MAX_URL_LENGTH} characters. */
    @RegisterForReflection
    static final class DeliveryUrl implements Checked.Rule<String> {

        @Override
        public String required() {
            return "is required: the absolute http or https URL deliveries are POSTed to";
        }

        @Override
        public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
            if (value.length() > MAX_URL_LENGTH) {
                context.addMessageParameter("length", value.length());
                return refuse(context, "must be at most " + MAX_URL_LENGTH + " characters, got {length}");
            }
            URI url;
            try {
                url = new URI(value);
            } catch (URISyntaxException e) {
                context.addMessageParameter("reason", e.getMessage());
                return refuse(context, "is not a valid URL: {reason}");
            }
            String scheme = url.getScheme() == null ? null : url.getScheme().toLowerCase(Locale.ROOT);
            if (!url.isAbsolute() || !("http".equals(scheme) || "https".equals(scheme)) || url.getHost() == null) {
                context.addMessageParameter("value", cut(value));
                return refuse(context, "must be an absolute http or https URL with a host, got '{value}'");
            }
            return url.getRawUserInfo() == null
                    || refuse(context, "must not carry credentials (user info); deliveries are signed instead");
        }
    }
}
