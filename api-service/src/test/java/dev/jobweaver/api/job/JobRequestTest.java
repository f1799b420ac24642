package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.Step;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a request's job control becomes the control its event carries: the start resolved against acceptance. */
class JobRequestTest {

    private static final Instant ACCEPTED = Instant.parse("2030-01-31T09:00:00.123456Z");

    private static JobRequest request(Priority priority, String runAt, Long delayMs) {
        return new JobRequest(JobType.SIMULATION, Payloads.tree(new JobPayload(List.of(new Step.Log("x")))), 1,
                priority, runAt, delayMs, null, null, null, null, null);
    }

    @Test
    void aRequestOfTheOriginalApiAsksForNoControl() {
        assertThat(new JobRequest(JobType.SIMULATION, new JobPayload(List.of(new Step.Log("x"))), 1)
                .control(ACCEPTED)).isNull();
    }

    @Test
    void delayMsBecomesTheInstantItNamesFromAcceptance() {
        assertThat(request(null, null, 5_000L).control(ACCEPTED).runAt()).isEqualTo(ACCEPTED.plusSeconds(5));
        assertThat(request(null, null, 0L).control(ACCEPTED).runAt()).isEqualTo(ACCEPTED);
    }

    @Test
    void runAtIsKeptToTheMicrosecondTheDatabaseStores() {
        assertThat(request(null, "2030-02-01T00:00:00.123456789Z", null).control(ACCEPTED).runAt())
                .isEqualTo(Instant.parse("2030-02-01T00:00:00.123456Z"));
        assertThat(request(null, "2030-02-01T01:00:00+01:00", null).control(ACCEPTED).runAt())
                .isEqualTo(Instant.parse("2030-02-01T00:00:00Z"));
    }

    @Test
    void aPastRunAtMeansAtOnce() {
        assertThat(request(null, "2001-01-01T00:00:00Z", null).control(ACCEPTED).runAt()).isEqualTo(ACCEPTED);
    }

    @Test
    void everyFieldGivenIsCarried() {
        JobRequest request = new JobRequest(JobType.SIMULATION, null, 1, Priority.LOW, null, null, 30_000L,
                List.of(100L, 200L), "acme", Map.of("team", "billing"), "images");

        assertThat(request.control(ACCEPTED)).isEqualTo(new JobControl(Priority.LOW, null, 30_000L,
                List.of(100L, 200L), "acme", Map.of("team", "billing"), "images"));
    }
}
