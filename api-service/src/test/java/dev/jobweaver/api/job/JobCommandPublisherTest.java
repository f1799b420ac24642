package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/** How a purge's jobs are grouped into records: by the partition their keys go to, in bounded groups. */
class JobCommandPublisherTest {

    @Test
    void everyJobIsInOneGroupOnItsKeysPartitionInTheOrderGivenAndGroupsAreBounded() {
        List<UUID> jobIds = IntStream.range(0, 2_500).mapToObj(i -> UUID.randomUUID()).toList();

        List<List<UUID>> groups = JobCommandPublisher.byPartition(jobIds, 3, 400);

        assertThat(groups.stream().flatMap(List::stream)).containsExactlyInAnyOrderElementsOf(jobIds);
        Map<Integer, Integer> perPartition = new HashMap<>();
        for (List<UUID> group : groups) {
            assertThat(group).isNotEmpty().hasSizeLessThanOrEqualTo(400);
            int partition = murmur2Partition(group.getFirst(), 3);
            assertThat(group).allSatisfy(id -> assertThat(murmur2Partition(id, 3)).isEqualTo(partition));
            List<Integer> positions = new ArrayList<>(group.stream().map(jobIds::indexOf).toList());
            assertThat(positions).isSorted();
            perPartition.merge(partition, group.size(), Integer::sum);
        }
        // as few groups as the bound allows: a partition with n jobs has ceil(n / 400) groups
        int fewest = perPartition.values().stream().mapToInt(n -> (n + 399) / 400).sum();
        assertThat(groups).hasSize(fewest);
    }

    @Test
    void aSinglePartitionTakesEveryJobInOneGroupWhenTheyFit() {
        List<UUID> jobIds = IntStream.range(0, 50).mapToObj(i -> UUID.randomUUID()).toList();

        assertThat(JobCommandPublisher.byPartition(jobIds, 1, 1_000)).containsExactly(jobIds);
    }

    /** Kafka's rule for a keyed record, written out: murmur2 of the key's bytes, made positive, modulo the count. */
    private static int murmur2Partition(UUID jobId, int partitions) {
        return Utils.toPositive(Utils.murmur2(jobId.toString().getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
