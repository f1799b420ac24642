package dev.jobweaver.api.platform.http;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** The rule of a UUID in its canonical form ({@link UuidText}); absent is valid. */
@RegisterForReflection
public final class Uuid implements Checked.Rule<String> {

    @Override
    public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
        if (UuidText.matches(value)) {
            return true;
        }
        // a parameter, never part of the template: the client's text is not interpolated
        context.addMessageParameter("value", ClientText.cut(value, 60));
        return refuse(context, "must be a UUID such as " + UuidText.EXAMPLE + ", got '{value}'");
    }
}
