package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.ClientText;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The rule of one of {@link Roles#ORDERED}, exactly as written there. Absent is valid (the body's reader refuses a null
 * role).
 */
@RegisterForReflection
final class KnownRole implements Checked.Rule<String> {

    @Override
    public boolean isValid(String role, Checked constraint, HibernateConstraintValidatorContext context) {
        if (Roles.isKnown(role)) {
            return true;
        }
        // a parameter, not part of the template: the client's text is never interpolated
        context.addMessageParameter("role", ClientText.shown(role));
        return refuse(context, "is '{role}', not one of " + ApiKeyRequest.ROLES);
    }
}
