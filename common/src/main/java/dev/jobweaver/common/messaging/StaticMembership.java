package dev.jobweaver.common.messaging;

import io.smallrye.reactive.messaging.ClientCustomizer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Makes every Kafka consumer of this process a static group member ({@code group.instance.id}) when the process has
 * a stable name, so that a restarted service takes its partitions back at once instead of waiting for its previous
 * self to time out of the group.
 *
 * <h2>Why</h2>
 * A consumer that dies without leaving its group (SIGKILL, a crash, Kafka stopped at the same moment) holds its
 * partitions until its session times out; a dynamic member that replaces it joins as a stranger and gets nothing
 * until then: restarted services took 30 s to run a job. A static member that rejoins under the same instance id
 * replaces its old self immediately, without a rebalance.
 *
 * <h2>Ids</h2>
 * {@code <client.id>-<jobweaver.kafka.instance-id>}: the consumer's client id, which SmallRye makes unique per
 * consumer of a process ({@code concurrency} copies get an index), then the process's stable name
 * ({@code ./jobweaver up} gives {@code worker-service}, {@code worker-service-2}, ...; a StatefulSet gives its pod
 * name). The client id comes first because the range assignor hands out partitions in the order of the members'
 * instance ids: this way the first consumer of every replica gets a partition before the second consumer of any, as
 * with dynamic member ids; with the name first, a second worker's three consumers took all three partitions. Without an instance id
 * the consumers stay dynamic members, which suits replicas whose names change at every start: a gracefully stopped
 * dynamic member leaves its group, a static one keeps its partitions until its session times out.
 *
 * <h2>Threads and defaults</h2>
 * Called by the connector as it creates each consumer, on the thread that creates the channel. No instance id by
 * default; an explicit {@code group.instance.id} in a channel's configuration is kept.
 */
@ApplicationScoped
public class StaticMembership implements ClientCustomizer<Map<String, Object>> {

    /** The configuration property naming this process among the replicas of its service. */
    public static final String INSTANCE_ID = "jobweaver.kafka.instance-id";
    static final String GROUP_INSTANCE_ID = "group.instance.id";

    private final Optional<String> instanceId;

    public StaticMembership(@ConfigProperty(name = INSTANCE_ID) Optional<String> instanceId) {
        this.instanceId = instanceId.map(String::trim).filter(id -> !id.isEmpty());
    }

    @Override
    public Map<String, Object> customize(String channel, Config channelConfig, Map<String, Object> config) {
        boolean consumer = config.containsKey("group.id") && config.containsKey("key.deserializer");
        if (instanceId.isEmpty() || !consumer || config.containsKey(GROUP_INSTANCE_ID)) {
            return config;
        }
        Object clientId = config.get("client.id");
        config.put(GROUP_INSTANCE_ID, legal((clientId != null ? clientId : channel) + "-" + instanceId.get()));
        return config;
    }

    /**
     * {@code id} with every character Kafka refuses in an instance id (anything but ASCII letters, digits, '.', '_'
     * and '-') replaced by '-': SmallRye names the copies of a {@code concurrency} channel {@code run-job-in$1}.
     */
    static String legal(String id) {
        StringBuilder out = new StringBuilder(id.length());
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.'
                    || c == '_' || c == '-';
            out.append(allowed ? c : '-');
        }
        return out.toString();
    }
}
