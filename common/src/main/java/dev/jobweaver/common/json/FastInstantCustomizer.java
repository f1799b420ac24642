package dev.jobweaver.common.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.time.Instant;

/**
 * Makes every service's ObjectMapper read {@link Instant}s with {@link IsoInstantDeserializer} and write them with
 * {@link IsoInstantSerializer}.
 *
 * <p>It runs last ({@link #MINIMUM_PRIORITY}), after Quarkus registered the Java time module, because Jackson asks the
 * most recently registered module first: this reader and writer then win for {@code Instant} and the module keeps every
 * other {@code java.time} type. The Kafka serializers and deserializers built on {@code ObjectMapperSerializer} and
 * {@code ObjectMapperDeserializer}, and the REST resources, use this same mapper.
 */
@Singleton
public class FastInstantCustomizer implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("jobweaver-fast-instant")
                .addDeserializer(Instant.class, new IsoInstantDeserializer())
                .addSerializer(Instant.class, new IsoInstantSerializer()));
    }

    @Override
    public int priority() {
        return MINIMUM_PRIORITY;
    }
}
