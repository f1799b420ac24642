package dev.jobweaver.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link FastInstantCustomizer} on a mapper that already has the Java time module, as Quarkus builds it: Instants go
 * through {@link IsoInstantDeserializer} and {@link IsoInstantSerializer}, and everything the fast paths leave alone
 * still reads and writes as Jackson does.
 */
class FastInstantCustomizerTest {

    private record Stamp(Instant at) {
    }

    private record Formatted(@JsonFormat(pattern = "yyyy-MM-dd", timezone = "UTC") Instant day) {
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

    @Test
    void instantsAreWrittenByTheFastWriterAsInstantToStringPrintsThem() throws Exception {
        Instant at = Instant.parse("2026-11-21T17:53:07.123456Z");

        assertThat(mapper.getSerializerProviderInstance().findValueSerializer(Instant.class))
                .isInstanceOf(IsoInstantSerializer.class);
        assertThat(mapper.writeValueAsString(new Stamp(at))).isEqualTo("{\"at\":\"2026-11-21T17:53:07.123456Z\"}");
        assertThat(mapper.writeValueAsString(at)).isEqualTo("\"" + at + "\"");
    }

    @Test
    void timestampsAsNumbersAFormatAnnotationAndFarYearsStillWriteAsJacksonWritesThem() throws Exception {
        Instant at = Instant.parse("2026-11-21T17:53:07.5Z");
        ObjectMapper plain = new ObjectMapper().registerModule(new JavaTimeModule());

        assertThat(mapper.writer().with(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).writeValueAsString(new Stamp(at)))
                .isEqualTo(plain.writer().with(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                        .writeValueAsString(new Stamp(at)))
                .isEqualTo("{\"at\":" + at.getEpochSecond() + ".500000000}");
        assertThat(mapper.writeValueAsString(new Formatted(at))).isEqualTo("{\"day\":\"2026-11-21\"}");
        Instant far = Instant.parse("+10000-01-01T00:00:00Z");
        assertThat(mapper.writeValueAsString(new Stamp(far)))
                .isEqualTo(plain.writer().without(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                        .writeValueAsString(new Stamp(far)));
    }

    private static ObjectMapper customized() {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS); // as Quarkus configures it
        new FastInstantCustomizer().customize(mapper);
        return mapper;
    }
}
