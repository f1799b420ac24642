package dev.jobweaver.common.json;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.std.StdScalarSerializer;
import com.fasterxml.jackson.datatype.jsr310.ser.InstantSerializer;
import java.io.IOException;
import java.time.Instant;

/**
 * Writes {@link Instant}s as {@link IsoInstants#write} does, the same text {@link Instant#toString()} gives, whenever
 * Jackson's own {@link InstantSerializer} would write that text; in every other case (timestamps as numbers, a
 * {@code @JsonFormat} or a configured format for {@code Instant}, an instant outside the years 0000-9999, polymorphic
 * typing) it hands over to Jackson's, so the output stays exactly Jackson's.
 */
public final class IsoInstantSerializer extends StdScalarSerializer<Instant> implements ContextualSerializer {

    private static final long serialVersionUID = 1L;

    public IsoInstantSerializer() {
        super(Instant.class);
    }

    @Override
    public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property)
            throws JsonMappingException {
        JsonFormat.Value format = findFormatOverrides(provider, property, handledType());
        if (format == null || format.equals(JsonFormat.Value.empty())) {
            return this;
        }
        return InstantSerializer.INSTANCE.createContextual(provider, property);
    }

    @Override
    public void serialize(Instant value, JsonGenerator generator, SerializerProvider provider) throws IOException {
        if (!provider.isEnabled(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)) {
            char[] text = new char[IsoInstants.MAX_LENGTH];
            int length = IsoInstants.write(value, text);
            if (length > 0) {
                generator.writeString(text, 0, length);
                return;
            }
        }
        InstantSerializer.INSTANCE.serialize(value, generator, provider);
    }

    @Override
    public void serializeWithType(Instant value, JsonGenerator generator, SerializerProvider provider,
            TypeSerializer typeSerializer) throws IOException {
        InstantSerializer.INSTANCE.serializeWithType(value, generator, provider, typeSerializer);
    }
}
