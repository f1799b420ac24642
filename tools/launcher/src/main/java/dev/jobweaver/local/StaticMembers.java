package dev.jobweaver.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.jboss.logging.Logger;

/**
 * Removes static consumer-group members whose process is gone for good, so that their partitions move at once.
 *
 * <h2>Why</h2>
 * The services are static members ({@code group.instance.id}, see common's {@code StaticMembership}): a restarted
 * instance takes its partitions back at once. A static member does not leave its group when it stops, though, so the
 * partitions of an instance that is not coming back (a replica removed, or fewer replicas at the next start) would
 * wait for its session to time out, 45 s by default: long enough for the leases of the runs dispatched to them to
 * expire. The launcher knows when an instance is not coming back, and removes its members itself.
 */
final class StaticMembers {

    private static final Logger LOG = Logger.getLogger(StaticMembers.class);
    private static final long TIMEOUT_SECONDS = 30;

    private StaticMembers() {
    }

    /** Removes every static member of every consumer group: nothing of the platform runs yet. */
    static int removeAll(String bootstrapServers) {
        return remove(bootstrapServers, id -> true);
    }

    /** Removes the static members of instance {@code name} (instance ids ending in {@code -name}). */
    static int removeInstance(String bootstrapServers, String name) {
        return remove(bootstrapServers, id -> id.endsWith("-" + name));
    }

    private static int remove(String bootstrapServers, Predicate<String> instanceIds) {
        try (Admin admin = KafkaClients.create(() -> Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)))) {
            List<String> groups = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream().map(GroupListing::groupId).toList();
            if (groups.isEmpty()) {
                return 0;
            }
            int removed = 0;
            Map<String, ConsumerGroupDescription> described = admin.describeConsumerGroups(groups).all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (ConsumerGroupDescription group : described.values()) {
                List<MemberToRemove> members = new ArrayList<>();
                for (MemberDescription member : group.members()) {
                    member.groupInstanceId().filter(instanceIds).ifPresent(id -> members.add(new MemberToRemove(id)));
                }
                if (!members.isEmpty()) {
                    admin.removeMembersFromConsumerGroup(group.groupId(), new RemoveMembersFromConsumerGroupOptions(
                            members)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    removed += members.size();
                }
            }
            if (removed > 0) {
                LOG.debugf("removed %d static group member(s) whose process is gone", removed);
            }
            return removed;
        } catch (ExecutionException | TimeoutException e) {
            // Not fatal: the members time out of their groups by themselves, only later.
            LOG.infof("could not remove static group members (%s); they leave when their sessions time out",
                    e.getMessage());
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }
}
