package dev.jobweaver.api.job.persistence;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.quarkus.hibernate.orm.JsonFormat;
import io.quarkus.hibernate.orm.PersistenceUnitExtension;
import jakarta.inject.Singleton;
import org.hibernate.type.descriptor.WrapperOptions;
import org.hibernate.type.descriptor.java.JavaType;
import org.hibernate.type.format.FormatMapper;
import org.hibernate.type.format.jackson.JacksonJsonFormatMapper;

/**
 * How jsonb columns ({@code jobs.instruction}) are written and read: a mapper of their own, so a change to the REST
 * layer's ObjectMapper can never change what is stored (Quarkus refuses to share it silently), and one built without
 * classpath scanning, so it behaves the same in a native executable.
 */
@JsonFormat
@PersistenceUnitExtension
@Singleton
public class JsonColumnFormat implements FormatMapper {

    private static final ObjectMapper COLUMN_MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final FormatMapper delegate = new JacksonJsonFormatMapper(COLUMN_MAPPER);

    /**
     * The mapper of jsonb columns, for code that writes them without Hibernate ({@link SubmissionStore}), so both
     * paths store exactly the same JSON. Thread-safe; never reconfigure it.
     */
    public static ObjectMapper columnMapper() {
        return COLUMN_MAPPER;
    }

    @Override
    public <T> T fromString(CharSequence value, JavaType<T> type, WrapperOptions options) {
        return delegate.fromString(value, type, options);
    }

    @Override
    public <T> String toString(T value, JavaType<T> type, WrapperOptions options) {
        return delegate.toString(value, type, options);
    }

    @Override
    public boolean supportsSourceType(Class<?> sourceType) {
        return delegate.supportsSourceType(sourceType);
    }

    @Override
    public boolean supportsTargetType(Class<?> targetType) {
        return delegate.supportsTargetType(targetType);
    }

    @Override
    public <T> void writeToTarget(T value, JavaType<T> type, Object target, WrapperOptions options)
            throws java.io.IOException {
        delegate.writeToTarget(value, type, target, options);
    }

    @Override
    public <T> T readFromSource(JavaType<T> type, Object source, WrapperOptions options) throws java.io.IOException {
        return delegate.readFromSource(type, source, options);
    }
}
