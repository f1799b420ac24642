package dev.jobweaver.api.job.messaging;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import io.quarkus.kafka.client.serialization.ObjectMapperDeserializer;

/** JSON {@link JobStatusChangedEvent}s with the application's ObjectMapper; a bad record surfaces as a null payload. */
public class JobStatusChangedEventDeserializer extends ObjectMapperDeserializer<JobStatusChangedEvent> {

    public JobStatusChangedEventDeserializer() {
        super(JobStatusChangedEvent.class);
    }
}
