package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.local.Platform.Service;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** Partition counts on one machine: --partitions, the replicas' minimum, and the consumers each worker runs. */
class TopicPartitionsTest {

    private static final TopicPartitions.Converter CONVERTER = new TopicPartitions.Converter();

    private static Map<Service, Integer> replicas(int schedulers, int workers) {
        return Map.of(Service.API, 1, Service.SCHEDULER, schedulers, Service.WORKER, workers);
    }

    @Test
    void readsTopicCountPairsInTheOrderGiven() {
        assertThat(CONVERTER.convert("job-created=6, run-job=12").counts())
                .containsExactly(Map.entry("job-created", 6), Map.entry("run-job", 12));
        assertThat(CONVERTER.convert("job-status=1").counts()).containsExactly(Map.entry("job-status", 1));
    }

    @Test
    void aBadValueIsRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> CONVERTER.convert("run-jobs=6")).isInstanceOf(TypeConversionException.class)
                .hasMessage("unknown topic 'run-jobs' (job-created, run-job, job-completed, job-failed, "
                        + "job-dead-letter, job-status, job-commands, worker-commands, schedules, "
                        + "schedule-fired, workflow-runs, workflow-progress, tenant-limits, worker-heartbeats, jobweaver-quarantine)");
        assertThatThrownBy(() -> CONVERTER.convert("run-job=six"))
                .hasMessage("'six' is not a partition count for run-job (a whole number from 1 to 100)");
        assertThatThrownBy(() -> CONVERTER.convert("run-job=0"))
                .hasMessage("'0' is not a partition count for run-job (a whole number from 1 to 100)");
        assertThatThrownBy(() -> CONVERTER.convert("run-job=101"))
                .hasMessage("'101' is not a partition count for run-job (a whole number from 1 to 100)");
        assertThatThrownBy(() -> CONVERTER.convert("run-job"))
                .hasMessage("'run-job' is not TOPIC=N, e.g. run-job=6");
        assertThatThrownBy(() -> CONVERTER.convert("run-job=6,"))
                .hasMessage("'' is not TOPIC=N, e.g. run-job=6");
        assertThatThrownBy(() -> CONVERTER.convert("run-job=6,run-job=3")).hasMessage("run-job is named twice");
        assertThatThrownBy(() -> CONVERTER.convert(" "))
                .hasMessage("expected TOPIC=N[,TOPIC=N...], e.g. job-created=6,run-job=6");
    }

    @Test
    void repeatedOptionsAddUpButNameATopicOnce() {
        assertThat(TopicPartitions.merge(List.of(CONVERTER.convert("run-job=6"), CONVERTER.convert("job-created=4"))))
                .containsExactly(Map.entry("run-job", 6), Map.entry("job-created", 4));
        assertThatThrownBy(() -> TopicPartitions.merge(List.of(CONVERTER.convert("run-job=6"),
                CONVERTER.convert("run-job=4")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--partitions names run-job twice");
    }

    @Test
    void theDefaultsGiveEveryReplicaOfTheDefaultCountsAPartition() {
        TopicPartitions.Plan plan = TopicPartitions.plan(Map.of(), replicas(2, 3));
        assertThat(plan.counts()).isEmpty();
        assertThat(plan.notes()).isEmpty();
        for (String topic : List.of(Topics.JOB_CREATED, Topics.RUN_JOB, Topics.JOB_COMPLETED, Topics.JOB_FAILED)) {
            assertThat(Topics.named(topic).partitions()).as(topic).isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void moreReplicasThanPartitionsRaiseTheTopicsTheyShareAndSaySo() {
        TopicPartitions.Plan plan = TopicPartitions.plan(Map.of(), replicas(4, 5));
        assertThat(plan.counts()).containsOnly(Map.entry("job-created", 4), Map.entry("job-completed", 4),
                Map.entry("job-failed", 4), Map.entry("job-commands", 4), Map.entry("schedules", 4),
                Map.entry("workflow-runs", 4), Map.entry("tenant-limits", 4), Map.entry("run-job", 5));
        assertThat(plan.notes()).containsExactly(
                "job-created: 4 partitions, one for each of the 4 schedulers (--partitions job-created=N chooses "
                        + "another count)",
                "job-completed: 4 partitions, one for each of the 4 schedulers (--partitions job-completed=N "
                        + "chooses another count)",
                "job-failed: 4 partitions, one for each of the 4 schedulers (--partitions job-failed=N chooses "
                        + "another count)",
                "job-commands: 4 partitions, one for each of the 4 schedulers (--partitions job-commands=N "
                        + "chooses another count)",
                "schedules: 4 partitions, one for each of the 4 schedulers (--partitions schedules=N chooses "
                        + "another count)",
                "workflow-runs: 4 partitions, one for each of the 4 schedulers (--partitions workflow-runs=N "
                        + "chooses another count)",
                "tenant-limits: 4 partitions, one for each of the 4 schedulers (--partitions tenant-limits=N "
                        + "chooses another count)",
                "run-job: 5 partitions, one for each of the 5 workers (--partitions run-job=N chooses another count)");
    }

    @Test
    void explicitCountsAreKeptAndOnlyTheOthersAreRaised() {
        TopicPartitions.Plan plan = TopicPartitions.plan(Map.of("run-job", 12, "job-created", 6, "job-status", 1),
                replicas(4, 3));
        assertThat(plan.counts()).containsOnly(Map.entry("run-job", 12), Map.entry("job-created", 6),
                Map.entry("job-status", 1), Map.entry("job-completed", 4), Map.entry("job-failed", 4),
                Map.entry("job-commands", 4), Map.entry("schedules", 4), Map.entry("workflow-runs", 4),
                Map.entry("tenant-limits", 4));
        assertThat(plan.notes()).hasSize(6).allMatch(note -> note.contains("4 schedulers"));
    }

    @Test
    void anExplicitCountThatLeavesAReplicaWithoutAPartitionIsRefused() {
        assertThatThrownBy(() -> TopicPartitions.plan(Map.of("run-job", 2), replicas(1, 3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--partitions run-job=2 leaves 1 of the 3 workers without a run-job partition: "
                        + "give run-job at least 3");
        assertThatThrownBy(() -> TopicPartitions.plan(Map.of("job-failed", 1), replicas(2, 1)))
                .hasMessage("--partitions job-failed=1 leaves 1 of the 2 schedulers without a job-failed partition: "
                        + "give job-failed at least 2");
    }

    @Test
    void describesEveryTopicsCountInTheContractsOrder() {
        assertThat(TopicPartitions.describe(Map.of("run-job", 12)))
                .isEqualTo("job-created:3 run-job:12 job-completed:3 job-failed:3 job-dead-letter:1 job-status:3 "
                        + "job-commands:3 worker-commands:1 schedules:3 schedule-fired:3 workflow-runs:3 workflow-progress:3 "
                        + "tenant-limits:3 worker-heartbeats:1 jobweaver-quarantine:1");
    }

    @Test
    void eachWorkerRunsAConsumerPerPartitionOfItsShareUpToItsOwnDefault() {
        assertThat(Platform.runJobConsumers(3, 1)).isEqualTo(3);
        assertThat(Platform.runJobConsumers(3, 3)).as("one partition each: no idle consumer").isEqualTo(1);
        assertThat(Platform.runJobConsumers(3, 2)).isEqualTo(2);
        assertThat(Platform.runJobConsumers(6, 3)).isEqualTo(2);
        assertThat(Platform.runJobConsumers(12, 3)).as("capped: a consumer holds several partitions").isEqualTo(3);
        assertThat(Platform.runJobConsumers(12, 1)).isEqualTo(3);
        assertThat(Platform.runJobConsumers(1, 1)).isEqualTo(1);
    }

    @Test
    void theCapIsTheWorkersOwnConsumerCount() throws IOException {
        Path file = Path.of("../../worker-runtime/src/main/resources/META-INF/microprofile-config.properties");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        assertThat(properties.getProperty(Platform.RUN_JOB_CONSUMERS))
                .isEqualTo(Integer.toString(Platform.MAX_RUN_JOB_CONSUMERS));
    }

    @Test
    void theHelpStatesEveryTopicsDefaultCount() {
        List<String> single = Topics.ALL.stream().filter(t -> t.partitions() == 1).map(Topics.TopicSpec::name).toList();
        assertThat(Topics.ALL).allSatisfy(t -> assertThat(t.partitions()).as(t.name()).isIn(1, 3));
        String named = String.join(", ", single.subList(0, single.size() - 1)) + " and " + single.getLast();
        assertThat(StackOptions.PARTITION_DEFAULTS).isEqualTo("1 for " + named + "; 3 for every other topic");
    }
}
