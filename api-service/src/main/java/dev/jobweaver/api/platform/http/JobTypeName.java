package dev.jobweaver.api.platform.http;

import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The rule of a job type's name as {@link JobType#PATTERN} defines it; absent is valid. Any well-formed name is a
 * type: the platform keeps no list of them.
 */
@RegisterForReflection
public final class JobTypeName implements Checked.Rule<String> {

    @Override
    public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
        if (JobType.isValid(value)) {
            return true;
        }
        context.addMessageParameter("pattern", JobType.PATTERN).addMessageParameter("value", ClientText.cut(value));
        return refuse(context, "must be a job type's name, {pattern}, got '{value}'");
    }
}
