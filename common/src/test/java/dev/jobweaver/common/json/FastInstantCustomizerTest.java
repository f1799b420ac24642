package dev.jobweaver.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link FastInstantCustomizer} on a mapper that already has the Java time module, as Quarkus builds it: Instants go
 * through {@link IsoInstantDeserializer}, everything the fast path leaves alone still reads as Jackson reads it.
 */
class FastInstantCustomizerTest {

    private record Stamp(Instant at) {
    }

    private final ObjectMapper mapper = customized();

    @Test
    void instantsAreReadByTheFastReaderOtherTimeTypesByTheModule() throws Exception {
        DeserializationConfig config = mapper.getDeserializationConfig();
        var context = ((DefaultDeserializationContext) mapper.getDeserializationContext()).createDummyInstance(config);

        assertThat(context.findRootValueDeserializer(config.constructType(Instant.class)))
                .isInstanceOf(IsoInstantDeserializer.class);
        assertThat(mapper.readValue("\"PT5S\"", Duration.class)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void readsTheServicesOwnShapeInsideRecords() throws Exception {
        Instant at = Instant.parse("2026-11-21T17:53:07.123456Z");

        assertThat(mapper.readValue(mapper.writeValueAsString(new Stamp(at)), Stamp.class).at()).isEqualTo(at);
    }

    @Test
    void offsetsEpochNumbersAndNullsStillReadAsJacksonReadsThem() throws Exception {
        assertThat(mapper.readValue("{\"at\":\"2026-11-21T19:53:07+02:00\"}", Stamp.class).at())
                .isEqualTo(Instant.parse("2026-11-21T17:53:07Z"));
        assertThat(mapper.readValue("{\"at\":1763747587.5}", Stamp.class).at())
                .isEqualTo(Instant.ofEpochSecond(1763747587, 500_000_000));
        assertThat(mapper.readValue("{\"at\":null}", Stamp.class).at()).isNull();
    }

    @Test
    void aMalformedInstantFailsWithJacksonsMessageNamingTheText() {
        assertThatThrownBy(() -> mapper.readValue("{\"at\":\"2026-02-30T00:00:00Z\"}", Stamp.class))
                .isInstanceOf(InvalidFormatException.class)
                .hasMessageContaining("2026-02-30T00:00:00Z");
    }

    private static ObjectMapper customized() {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());
        new FastInstantCustomizer().customize(mapper);
        return mapper;
    }
}
