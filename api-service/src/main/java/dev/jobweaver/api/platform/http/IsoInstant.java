package dev.jobweaver.api.platform.http;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The rule of an instant as {@link Instant#parse} reads it ({@code 2030-01-31T09:00:00Z}); absent is valid. For a
 * member read as a string so that a bad instant is a broken rule (the body's code) rather than a value of the wrong
 * type.
 */
@RegisterForReflection
public final class IsoInstant implements Checked.Rule<String> {

    @Override
    public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
        try {
            Instant.parse(value);
            return true;
        } catch (DateTimeParseException e) {
            context.addMessageParameter("value", ClientText.cut(value));
            return refuse(context, "must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got '{value}'");
        }
    }
}
