package dev.jobweaver.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

/**
 * A worker of a queue of its own creates that queue's run topic, reads it beside {@code run-job}, and runs what
 * arrives on either.
 */
@QuarkusTest
@TestProfile(QueueRoutingTest.TwoQueues.class)
@JobWeaverTest(database = "jobweaver_worker")
class QueueRoutingTest extends WorkerKafkaTest {

    static final String QUEUE = "routing-test";

    /** The standard worker, serving a second queue. */
    public static class TwoQueues implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("jobweaver.worker.queues", "default," + QUEUE, "jobweaver.worker.queue-partitions", "2");
        }
    }

    @Test
    void theQueuesTopicIsCreatedAndItsRunsRunAsTheDefaultQueuesDo() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, WorkerKafka.bootstrap()))) {
            Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            assertThat(topics).contains(Topics.runJob(QUEUE));
            assertThat(admin.describeTopics(Set.of(Topics.runJob(QUEUE))).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(Topics.runJob(QUEUE)).partitions()).hasSize(2);
        }
        RunJobEvent onItsQueue = WorkerKafka.run(new Step.Log("on its own queue"));
        RunJobEvent onDefault = WorkerKafka.run(new Step.Log("on the default queue"));

        kafka.sendTo(Topics.runJob(QUEUE), onItsQueue);
        kafka.send(onDefault, null);

        assertThat(firstOutcome(onItsQueue.jobId()).topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(firstOutcome(onDefault.jobId()).topic()).isEqualTo(Topics.JOB_COMPLETED);
    }
}
