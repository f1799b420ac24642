package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.jobweaver.api.job.StatusRecord.Unusable;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.quarantine.QuarantineReason;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** How one {@code job-status} record is read by both of its consumers: usable, set aside and why, or skipped. */
class StatusRecordTest {

    private final ObjectMapper mapper = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private final List<Unusable> unusable = new ArrayList<>();

    @Test
    void anEventKeyedByItsJobIsUsableWithItsRecord() {
        String jobId = UUID.randomUUID().toString();
        JobStatusChangedEvent event = StatusEvents.event(jobId, JobStatus.RUNNING, 2, 1, null);
        byte[] value = StatusEvents.json(mapper, event);

        StatusRecord read = StatusRecord.read(mapper, KafkaRecord.of(jobId, value), unusable);

        assertThat(read).isNotNull();
        assertThat(read.event()).isEqualTo(event);
        assertThat(read.origin().value()).isSameAs(value);
        assertThat(unusable).isEmpty();
    }

    @Test
    void aTombstoneIsNeitherUsableNorSetAside() {
        assertThat(StatusRecord.read(mapper, KafkaRecord.of(UUID.randomUUID().toString(), null), unusable)).isNull();
        assertThat(unusable).isEmpty();
    }

    @Test
    void aRecordThatDoesNotParseIsSetAsideAsUnreadableWithItsBytes() {
        byte[] value = "{\"jobId\":".getBytes(StandardCharsets.UTF_8);

        assertThat(StatusRecord.read(mapper, KafkaRecord.of(UUID.randomUUID().toString(), value), unusable)).isNull();

        assertThat(unusable).singleElement().satisfies(bad -> {
            assertThat(bad.reason()).isEqualTo(QuarantineReason.UNREADABLE);
            assertThat(bad.origin().value()).isSameAs(value);
        });
    }

    @Test
    void anEventThatBreaksARuleIsSetAsideAsInvalid() {
        String jobId = UUID.randomUUID().toString();
        JobStatusChangedEvent event = StatusEvents.event(jobId, JobStatus.RUNNING, -1, 1, null);

        assertThat(StatusRecord.read(mapper, KafkaRecord.of(jobId, StatusEvents.json(mapper, event)), unusable))
                .isNull();

        assertThat(unusable).singleElement().satisfies(bad -> {
            assertThat(bad.reason()).isEqualTo(QuarantineReason.INVALID);
            assertThat(bad.detail()).contains("version");
        });
    }

    @Test
    void anEventKeyedByAnotherJobIsSetAsideAsInvalidNamingTheKey() {
        String jobId = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        JobStatusChangedEvent event = StatusEvents.event(jobId, JobStatus.COMPLETED, 3, 1, null);

        assertThat(StatusRecord.read(mapper, KafkaRecord.of(other, StatusEvents.json(mapper, event)), unusable))
                .isNull();

        assertThat(unusable).singleElement().satisfies(bad -> {
            assertThat(bad.reason()).isEqualTo(QuarantineReason.INVALID);
            assertThat(bad.detail()).contains(other);
        });
    }
}
