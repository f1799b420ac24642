package dev.jobweaver.common.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.messaging.Topics.TopicSpec;
import org.junit.jupiter.api.Test;

class TopicsTest {

    @Test
    void declaresTheSpecPartitionCounts() {
        assertThat(Topics.ALL).containsExactly(
                new TopicSpec("job-created", 3, false),
                new TopicSpec("run-job", 3, false),
                new TopicSpec("job-completed", 3, false),
                new TopicSpec("job-failed", 3, false),
                new TopicSpec("job-dead-letter", 1, false),
                new TopicSpec("job-status", 3, true),
                new TopicSpec("job-commands", 3, false),
                new TopicSpec("worker-commands", 1, false),
                new TopicSpec("schedules", 3, true),
                new TopicSpec("schedule-fired", 3, false),
                new TopicSpec("workflow-runs", 3, false),
                new TopicSpec("workflow-progress", 3, false),
                new TopicSpec("tenant-limits", 3, true),
                new TopicSpec("worker-heartbeats", 1, true),
                new TopicSpec("jobweaver-quarantine", 1, false, 2 * 1024 * 1024));
    }

    @Test
    void findsATopicByItsNameAndNamesTheTopicsForAnUnknownOne() {
        assertThat(Topics.named("run-job")).isEqualTo(new TopicSpec("run-job", 3, false));
        assertThatThrownBy(() -> Topics.named("run-jobs")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown topic 'run-jobs' (job-created, run-job, job-completed, job-failed, "
                        + "job-dead-letter, job-status, job-commands, worker-commands, schedules, "
                        + "schedule-fired, workflow-runs, workflow-progress, tenant-limits, worker-heartbeats, jobweaver-quarantine)");
    }
}
