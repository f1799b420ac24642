package dev.jobweaver.api.platform.http;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.lang.reflect.Type;
import java.util.function.BiFunction;

/**
 * How a {@link Body} is read, named on its endpoint by {@code @CustomDeserialization(StrictJson.class)}: with a copy of
 * the application's {@link ObjectMapper} that takes a value only in its own JSON type. No string, decimal or boolean
 * as an integer, no number or boolean as a string, no string or number as a boolean, no number as an enum, no empty
 * string as an object or a list; no trailing data, no duplicate key, and an unknown field is refused unless the
 * record says {@code @JsonIgnoreProperties(ignoreUnknown = true)}.
 *
 * <p>A copy rather than a change of the application's mapper: responses, stored JSON and Kafka events keep their
 * formats. Quarkus asks once per endpoint and keeps the reader, so the body is parsed once, straight into the record.
 */
public final class StrictJson implements BiFunction<ObjectMapper, Type, ObjectReader> {

    private static volatile Copy copy;

    /** The strict copy of {@code base}, made once per application mapper. */
    private record Copy(ObjectMapper base, ObjectMapper strict) {
    }

    @Override
    public ObjectReader apply(ObjectMapper base, Type type) {
        ObjectMapper strict = strict(base);
        return strict.readerFor(strict.constructType(type));
    }

    /** {@code base} made strict as the class comment says; the same copy for the same {@code base}. */
    public static ObjectMapper strict(ObjectMapper base) {
        Copy current = copy;
        if (current == null || current.base != base) {
            current = new Copy(base, configure(base.copy()));
            copy = current;
        }
        return current.strict;
    }

    /**
     * A new strict copy of {@code base}, for a reader that needs one setting of its own on top (a job body ignores
     * unknown fields inside its payload too, as the original API did, so its reader turns
     * {@link DeserializationFeature#FAIL_ON_UNKNOWN_PROPERTIES} off again).
     */
    public static ObjectMapper strictCopy(ObjectMapper base) {
        return configure(base.copy());
    }

    private static ObjectMapper configure(ObjectMapper strict) {
        strict.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        strict.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        strict.enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS);
        strict.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        strict.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        strict.disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);
        strict.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        refuse(strict, CoercionInputShape.String, LogicalType.Integer, LogicalType.Boolean);
        refuse(strict, CoercionInputShape.Integer, LogicalType.Textual, LogicalType.Boolean, LogicalType.Enum);
        refuse(strict, CoercionInputShape.Float, LogicalType.Integer, LogicalType.Textual, LogicalType.Boolean);
        refuse(strict, CoercionInputShape.Boolean, LogicalType.Integer, LogicalType.Textual);
        refuse(strict, CoercionInputShape.EmptyString, LogicalType.Integer, LogicalType.Boolean, LogicalType.Enum,
                LogicalType.Collection, LogicalType.POJO);
        return strict;
    }

    /** A JSON value of {@code shape} is refused where one of {@code types} is expected, instead of coerced. */
    private static void refuse(ObjectMapper strict, CoercionInputShape shape, LogicalType... types) {
        for (LogicalType type : types) {
            strict.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
        }
    }
}
