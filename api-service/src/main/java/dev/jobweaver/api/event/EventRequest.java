package dev.jobweaver.api.event;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.ClientText;
import dev.jobweaver.api.platform.http.EventTypeName;
import dev.jobweaver.api.platform.http.TenantName;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Iterator;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The body of {@code POST /api/events}: an application event. Unknown fields are ignored, as for jobs. Whether the
 * event, as a run's input, fits {@code jobweaver.api.workflows.max-input-bytes} is the resource's question (a 413).
 *
 * @param id the client's id of the event, which makes a repeat start nothing new; a new UUID when absent
 * @param data any JSON the runs get as {@code input.data}; absent is a JSON null
 * @param tenant whose workflows hear it; the caller's own when absent
 */
@Body(rule = ApiErrorCode.INVALID_EVENT_REQUEST, example = EventRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = EventRequest.EXAMPLE)
@RegisterForReflection
public record EventRequest(
        @Schema(minLength = 1, maxLength = EventId.MAX_LENGTH, pattern = EventId.PATTERN, description = "unique per"
                + " tenant: the same id again starts nothing new and is answered with the same runs (a new UUID when"
                + " absent)") @Checked(EventId.class) String id,
        @Schema(required = true, pattern = EventTypeName.PATTERN, description = "the event's type; every workflow"
                + " whose triggers name it starts a run") @Checked(RequiredType.class) String type,
        @Schema(type = SchemaType.OBJECT, description = "any JSON, the runs' input.data")
        @Checked(StorableJson.class) JsonNode data,
        @Schema(pattern = "[a-z0-9][a-z0-9-]{0,62}", description = "whose workflows hear it (default the caller's)")
        @Checked(TenantName.class) String tenant) {

    static final String EXAMPLE = "{\"id\":\"order-42-created\",\"type\":\"order.created\",\"data\":{\"orderId\":42}}";

    /** The rule of an event's id: 1 to 200 printable ASCII characters, no space. */
    @RegisterForReflection
    static final class EventId implements Checked.Rule<String> {

        static final int MAX_LENGTH = 200;
        static final String PATTERN = "[!-~]{1,200}";

        /** Whether {@code id} keeps the rule. */
        static boolean isValid(String id) {
            if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
                return false;
            }
            for (int i = 0; i < id.length(); i++) {
                char c = id.charAt(i);
                if (c < '!' || c > '~') {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
            if (isValid(value)) {
                return true;
            }
            context.addMessageParameter("length", value.length()).addMessageParameter("value", ClientText.cut(value));
            return refuse(context, "must be 1 to " + MAX_LENGTH + " printable ASCII characters without spaces, got"
                    + " '{value}' ({length} characters)");
        }
    }

    /** {@link EventTypeName}, required. */
    @RegisterForReflection
    static final class RequiredType implements Checked.Rule<String> {

        private static final EventTypeName TYPE = new EventTypeName();

        @Override
        public String required() {
            return "is required: the event's type, e.g. order.created";
        }

        @Override
        public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
            return TYPE.isValid(value, constraint, context);
        }
    }

    /**
     * JSON that PostgreSQL's jsonb stores: no NUL character (U+0000) in a string or a field name, no number beyond a
     * double. Any other JSON is valid, a JSON null too.
     */
    @RegisterForReflection
    static final class StorableJson implements Checked.Rule<JsonNode> {

        @Override
        public boolean isValid(JsonNode value, Checked constraint, HibernateConstraintValidatorContext context) {
            String problem = problem(value);
            return problem == null || refuse(context, problem);
        }

        /** What in {@code node} jsonb refuses, as the end of a message naming the member; null when nothing. */
        static String problem(JsonNode node) {
            if (node.isTextual() && node.textValue().indexOf(0) >= 0) {
                return "must not contain the NUL character (U+0000), which the database cannot store";
            }
            if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())) {
                return "holds a number out of range";
            }
            if (node.isArray()) {
                for (JsonNode element : node) {
                    String problem = problem(element);
                    if (problem != null) {
                        return problem;
                    }
                }
            } else if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    if (field.getKey().indexOf(0) >= 0) {
                        return "has a field name with the NUL character (U+0000), which the database cannot store";
                    }
                    String problem = problem(field.getValue());
                    if (problem != null) {
                        return problem;
                    }
                }
            }
            return null;
        }
    }
}
