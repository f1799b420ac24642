package dev.jobweaver.api.platform.http;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.regex.Pattern;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The rule of an application event's type ({@code order.created}), {@value #PATTERN}: the job type's rule, so that a
 * type reads the same wherever a client writes one. Absent is valid; a member that needs one says so itself. Used by
 * the events' body, a workflow's {@code triggers} and a hook's {@code event}.
 */
@RegisterForReflection
public final class EventTypeName implements Checked.Rule<String> {

    /** What an event type looks like: a letter, then at most 99 letters, digits, '_', '.' or '-'. */
    public static final String PATTERN = "[A-Za-z][A-Za-z0-9_.-]{0,99}";
    /** The longest type, as {@code application_events.type} and {@code hooks.event} store it. */
    public static final int MAX_LENGTH = 100;
    private static final Pattern TYPE = Pattern.compile(PATTERN);

    /** Whether {@code type} is a well-formed event type. */
    public static boolean isValid(String type) {
        return type != null && TYPE.matcher(type).matches();
    }

    /** "must be an event type, ..., got '...'": the end of a message that begins with the field's name. */
    public static String problem(String type) {
        return "must be an event type, a letter then at most 99 letters, digits, '_', '.' or '-' (" + PATTERN
                + "), got '" + ClientText.cut(type) + "'";
    }

    @Override
    public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
        if (isValid(value)) {
            return true;
        }
        context.addMessageParameter("pattern", PATTERN).addMessageParameter("value", ClientText.cut(value));
        return refuse(context, "must be an event type, a letter then at most 99 letters, digits, '_', '.' or '-'"
                + " ({pattern}), got '{value}'");
    }
}
