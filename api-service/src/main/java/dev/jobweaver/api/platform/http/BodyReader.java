package dev.jobweaver.api.platform.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validator;
import java.io.IOException;
import java.util.Set;

/**
 * Binds a {@link Body} record from bytes the endpoint took itself, as {@link StrictJson} and Bean Validation bind the
 * bodies Quarkus reads: the same strict reader, the same refusals worded by {@link BodyErrors}. For the endpoints whose
 * body is optional, which must take a request without one and without a {@code Content-Type} rather than answer 415.
 *
 * <p>Thread-safe: the readers are immutable and kept per record type.
 */
@Singleton
public class BodyReader {

    private final ObjectMapper base;
    private final Validator validator;
    private final ClassValue<ObjectReader> readers = new ClassValue<>() {
        @Override
        protected ObjectReader computeValue(Class<?> type) {
            return StrictJson.strict(base).readerFor(type);
        }
    };

    public BodyReader(ObjectMapper base, Validator validator) {
        this.base = base;
        this.validator = validator;
    }

    /**
     * The {@code type} in {@code body}, valid; null when there is no body or one of only whitespace. A 400 worded by
     * {@link BodyErrors} when it is not JSON, no object, of the wrong types or breaks a rule.
     */
    public <T> T optional(byte[] body, Class<T> type) {
        if (blank(body)) {
            return null;
        }
        T value;
        try {
            value = readers.get(type).readValue(body);
        } catch (JsonProcessingException e) {
            throw BodyErrors.unreadable(e, type);
        } catch (IOException e) {
            throw BodyErrors.unreadable(e);
        }
        if (value == null) {
            throw BodyErrors.notAnObject("null", type);
        }
        return valid(value);
    }

    /** The {@code type} in {@code body}, valid, as {@link #optional} reads it; a 400 also when there is none. */
    public <T> T required(byte[] body, Class<T> type) {
        T value = optional(body, type);
        if (value == null) {
            throw BodyErrors.empty(type);
        }
        return value;
    }

    private <T> T valid(T value) {
        Set<ConstraintViolation<T>> violations = validator.validate(value);
        if (!violations.isEmpty()) {
            throw BodyErrors.violated(new ConstraintViolationException(violations));
        }
        return value;
    }

    private static boolean blank(byte[] body) {
        if (body == null) {
            return true;
        }
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
