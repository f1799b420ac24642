package dev.jobweaver.common.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
import java.io.IOException;
import java.time.Instant;

/**
 * Reads {@link Instant}s with {@link IsoInstants} when the JSON string is in the shape the services write, and with
 * Jackson's own {@link InstantDeserializer} otherwise (numbers, offsets, malformed text), so what is accepted and how
 * a bad value is reported stay exactly Jackson's.
 */
public final class IsoInstantDeserializer extends StdScalarDeserializer<Instant> {

    private static final long serialVersionUID = 1L;

    public IsoInstantDeserializer() {
        super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        if (parser.hasToken(JsonToken.VALUE_STRING)) {
            Instant instant = IsoInstants.parse(parser.getText());
            if (instant != null) {
                return instant;
            }
        }
        return InstantDeserializer.INSTANT.deserialize(parser, context);
    }
}
