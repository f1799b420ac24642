package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.ClientText;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The rule of an expiry: an ISO-8601 date-time with an offset, in the future and before the year 10000 (what the
 * database keeps). Absent is valid: no expiry.
 */
@RegisterForReflection
final class Expiry implements Checked.Rule<String> {

    private static final Instant LAST = Instant.parse("9999-12-31T23:59:59Z");

    @Override
    public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
        Instant expiresAt;
        try {
            expiresAt = OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            context.addMessageParameter("value", ClientText.shown(value));
            return refuse(context, "must be an ISO-8601 date-time with an offset such as 2030-01-01T00:00:00Z,"
                    + " got '{value}'");
        }
        if (!expiresAt.isAfter(Instant.now())) {
            context.addMessageParameter("value", expiresAt.toString());
            return refuse(context, "must be in the future, got {value}");
        }
        return !expiresAt.isAfter(LAST) || refuse(context, "must be before the year 10000");
    }
}
