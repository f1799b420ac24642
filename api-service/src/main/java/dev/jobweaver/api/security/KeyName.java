package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.Checked;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The rule of an API key's name: 1 to {@link Checked#max} characters, not blank, no control character; absent is
 * valid.
 */
@RegisterForReflection
final class KeyName implements Checked.Rule<String> {

    @Override
    public boolean isValid(String name, Checked constraint, HibernateConstraintValidatorContext context) {
        if (name.isBlank() || name.length() > constraint.max()) {
            context.addMessageParameter("length", name.length());
            return refuse(context, "must be 1 to {max} characters and not blank, got {length}");
        }
        return name.chars().noneMatch(Character::isISOControl)
                || refuse(context, "must not contain control characters");
    }
}
