package dev.jobweaver.api.platform.http;

import dev.jobweaver.common.job.StepRules;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** The rule of a text without the NUL character, which no PostgreSQL text column stores; absent is valid. */
@RegisterForReflection
public final class NoNul implements Checked.Rule<String> {

    @Override
    public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
        return !StepRules.hasNul(value) || refuse(context, "must not contain the NUL character");
    }
}
