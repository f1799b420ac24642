package dev.jobweaver.common.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventIdsTest {

    private final UUID job = UUID.randomUUID();

    @Test
    void theSameAttemptAlwaysHasTheSameRunId() {
        assertThat(EventIds.runEventId(job, 1)).isEqualTo(EventIds.runEventId(job, 1));
    }

    @Test
    void differentAttemptsAndJobsHaveDifferentRunIds() {
        assertThat(EventIds.runEventId(job, 1)).isNotEqualTo(EventIds.runEventId(job, 2));
        assertThat(EventIds.runEventId(job, 1)).isNotEqualTo(EventIds.runEventId(UUID.randomUUID(), 1));
    }

    @Test
    void outcomeAndStatusIdsDifferFromTheRunId() {
        UUID run = EventIds.runEventId(job, 1);
        assertThat(EventIds.outcomeEventId(run)).isNotEqualTo(run);
        assertThat(EventIds.statusEventId(job, 1)).isNotEqualTo(run);
    }
}
