package dev.jobweaver.api.notification.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.notification.service.NotificationEvent;
import dev.jobweaver.api.notification.service.SubscriptionRequest;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.api.web.rest.JsonBody;
import dev.jobweaver.api.web.rest.UuidText;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.job.JobType;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Reads and checks the body of {@code POST /api/subscriptions}: a 400 that names the field for anything wrong.
 *
 * <p>Not JSON, trailing data, a duplicate key or a value of the wrong type is {@code API.MALFORMED_JSON}; a broken rule
 * is {@code API.INVALID_SUBSCRIPTION_REQUEST}. Unknown properties are ignored, as for jobs. Whether a {@code jobId}
 * names an existing job and whether the URL's destination is allowed are decided by the service (they need the
 * database and DNS).
 */
public final class SubscriptionRequestReader {

    /** The targets, exactly one of which a subscription names. */
    static final List<String> TARGETS = List.of("jobId", "scheduleId", "workflowId", "jobType");
    /** Longest URL. */
    static final int MAX_URL_LENGTH = 2048;

    private static final String EXAMPLE = "{\"jobId\":\"...\",\"events\":[\"COMPLETED\"],\"url\":\"https://...\"}";
    private static final String VALID_EVENTS = Arrays.stream(NotificationEvent.values()).map(Enum::name)
            .collect(Collectors.joining(", "));
    private static final String VALID_TYPES = Arrays.stream(JobType.values()).map(Enum::name)
            .collect(Collectors.joining(", "));

    private final JsonBody json;

    public SubscriptionRequestReader(ObjectMapper base) {
        this.json = new JsonBody(base);
    }

    /** The request in {@code body}, or an {@link ApiException} naming what is wrong. */
    public SubscriptionRequest read(byte[] body) {
        JsonNode root = json.parseValue(body, EXAMPLE);
        if (root == null || !root.isObject()) {
            throw JsonBody.notAnObject(root);
        }
        List<String> given = TARGETS.stream().filter(name -> present(root, name)).toList();
        if (given.size() != 1) {
            throw invalid("exactly one of " + String.join(", ", TARGETS) + " is required, got "
                    + (given.isEmpty() ? "none" : String.join(" and ", given)));
        }
        String target = given.getFirst();
        UUID jobId = target.equals("jobId") ? uuid(root, "jobId") : null;
        UUID scheduleId = target.equals("scheduleId") ? uuid(root, "scheduleId") : null;
        UUID workflowId = target.equals("workflowId") ? uuid(root, "workflowId") : null;
        JobType jobType = target.equals("jobType") ? jobType(root) : null;
        return new SubscriptionRequest(jobId, scheduleId, workflowId, jobType, events(root), url(root));
    }

    private static boolean present(JsonNode root, String name) {
        JsonNode node = root.get(name);
        return node != null && !node.isNull();
    }

    private static UUID uuid(JsonNode root, String name) {
        String value = JsonBody.text(root, name);
        if (!UuidText.matches(value)) {
            throw invalid(name + " must be a UUID such as " + UuidText.EXAMPLE + ", got '" + cut(value) + "'");
        }
        return UUID.fromString(value);
    }

    private static JobType jobType(JsonNode root) {
        String value = JsonBody.text(root, "jobType");
        try {
            return JobType.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw invalid("jobType '" + cut(value) + "' is not a known value; valid values are " + VALID_TYPES);
        }
    }

    private static List<NotificationEvent> events(JsonNode root) {
        JsonNode events = JsonBody.array(root, "events", "events", "an array");
        if (events == null) {
            throw invalid("events is required: a non-empty array of " + VALID_EVENTS);
        }
        if (events.isEmpty()) {
            throw invalid("events must not be empty; valid events are " + VALID_EVENTS);
        }
        Set<NotificationEvent> seen = new LinkedHashSet<>();
        for (int i = 0; i < events.size(); i++) {
            JsonNode event = events.get(i);
            if (!event.isTextual()) {
                throw JsonBody.wrongType("events[" + i + "]", "a string", event);
            }
            NotificationEvent parsed;
            try {
                parsed = NotificationEvent.valueOf(event.textValue());
            } catch (IllegalArgumentException e) {
                throw invalid("events[" + i + "] '" + cut(event.textValue()) + "' is not a known event; valid events"
                        + " are " + VALID_EVENTS);
            }
            if (!seen.add(parsed)) {
                throw invalid("events[" + i + "] '" + parsed + "' is given twice");
            }
        }
        return new ArrayList<>(seen);
    }

    private static URI url(JsonNode root) {
        if (!present(root, "url")) {
            throw invalid("url is required: the absolute http or https URL deliveries are POSTed to");
        }
        String value = JsonBody.text(root, "url");
        if (value.length() > MAX_URL_LENGTH) {
            throw invalid("url must be at most " + MAX_URL_LENGTH + " characters, got " + value.length());
        }
        URI url;
        try {
            url = new URI(value);
        } catch (URISyntaxException e) {
            throw invalid("url is not a valid URL: " + e.getMessage());
        }
        String scheme = url.getScheme() == null ? null : url.getScheme().toLowerCase(Locale.ROOT);
        if (!url.isAbsolute() || !("http".equals(scheme) || "https".equals(scheme)) || url.getHost() == null) {
            throw invalid("url must be an absolute http or https URL with a host, got '" + cut(value) + "'");
        }
        if (url.getRawUserInfo() != null) {
            throw invalid("url must not carry credentials (user info); deliveries are signed instead");
        }
        return url;
    }

    private static String cut(String value) {
        return JsonBody.cut(value, 60);
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.INVALID_SUBSCRIPTION_REQUEST, message);
    }
}
