package dev.jobweaver.api.platform.http;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The rule of a required name of 1 to {@link Checked#max} characters, not blank, without NUL (which no PostgreSQL
 * text column stores): the name of a hook, a schedule, a workflow.
 */
@RegisterForReflection
public final class Name implements Checked.Rule<String> {

    @Override
    public String required() {
        return "is required (1 to {max} characters)";
    }

    @Override
    public boolean isValid(String name, Checked constraint, HibernateConstraintValidatorContext context) {
        if (name.isBlank()) {
            return refuse(context, required());
        }
        if (name.indexOf(0) >= 0) {
            return refuse(context, "must not contain the NUL character");
        }
        if (name.length() > constraint.max()) {
            context.addMessageParameter("length", name.length());
            return refuse(context, "must be at most {max} characters, got {length}");
        }
        return true;
    }
}
