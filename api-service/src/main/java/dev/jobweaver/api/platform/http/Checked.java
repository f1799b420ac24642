package dev.jobweaver.api.platform.http;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Constructor;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * A member (or a whole body) that keeps a rule of the API: {@link #value} checks it and, when it breaks the rule,
 * builds the message. One constraint for every rule, so that a rule is its check and its messages rather than a
 * constraint declaration of its own. A rule is stateless, has a constructor without parameters, and is registered for
 * reflection (it is made from its class, in a native executable too).
 *
 * <p>A rule adds what a message shows of the client's text as a message parameter ({@code {value}}, ...), never as
 * part of the template, so the client's text is never interpolated. {@code {max}} in a template is {@link #max}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE,
        ElementType.TYPE})
@Constraint(validatedBy = Checked.Validator.class)
public @interface Checked {

    /** The rule. */
    Class<? extends Rule<?>> value();

    /** Most characters, for a rule that takes a length. */
    int max() default Integer.MAX_VALUE;

    /** Never shown: a rule always builds its own message. */
    String message() default "breaks a rule";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** A rule of the API. Thread-safe: one instance checks every value of its member. */
    interface Rule<T> {

        /** The message of an absent (null) value, or null when the member may be absent. */
        default String required() {
            return null;
        }

        /**
         * Whether {@code value}, never null, keeps the rule; when it does not, the rule has built the message, usually
         * with {@link #refuse}.
         */
        boolean isValid(T value, Checked constraint, HibernateConstraintValidatorContext context);

        /** Refuses a value with the message {@code template}; answers false. */
        default boolean refuse(ConstraintValidatorContext context, String template) {
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(template).addConstraintViolation();
            return false;
        }
    }

    /** Checks with the rule {@link #value} names. */
    final class Validator implements ConstraintValidator<Checked, Object> {

        private Checked constraint;
        private Rule<Object> rule;

        @Override
        @SuppressWarnings("unchecked")
        public void initialize(Checked constraint) {
            this.constraint = constraint;
            try {
                Constructor<? extends Rule<?>> made = constraint.value().getDeclaredConstructor();
                made.setAccessible(true);
                this.rule = (Rule<Object>) made.newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the rule " + constraint.value().getName() + " cannot be made", e);
            }
        }

        @Override
        public boolean isValid(Object value, ConstraintValidatorContext context) {
            if (value == null) {
                return rule.required() == null || rule.refuse(context, rule.required());
            }
            return rule.isValid(value, constraint, context.unwrap(HibernateConstraintValidatorContext.class));
        }
    }
}
