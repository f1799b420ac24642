package dev.jobweaver.api.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.quarantine.Quarantine;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;

/**
 * The beans a test of one of the service's Kafka consumers reads: the mapper that writes the records it sends, the
 * registry that counts what the consumer did, and the quarantine that counts what it refused.
 */
public abstract class ConsumerTestSupport {

    @Inject
    protected ObjectMapper mapper;

    @Inject
    protected MeterRegistry registry;

    @Inject
    protected Quarantine quarantine;
}
