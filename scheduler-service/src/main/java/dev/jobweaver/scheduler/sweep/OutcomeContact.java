package dev.jobweaver.scheduler.sweep;

import dev.jobweaver.common.messaging.Channels;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.jboss.logging.Logger;

/**
 * Since when this replica has been able to hear its workers' outcomes: how long every consumer of
 * {@code job-completed} and {@code job-failed} has been a live member of its group without a break. A lease that
 * runs out while the outcomes cannot arrive (the broker is down, or this replica is cut off from it) says nothing
 * about its worker, so the {@link LeaseSweeper} expires none until contact has lasted its quiet period.
 *
 * <p>A consumer is in contact when it sent its last heartbeat to its group coordinator within its own
 * {@code session.timeout.ms}, the bound by which the coordinator judges a member (Kafka's
 * {@code last-heartbeat-seconds-ago} metric). It sends none while it has no coordinator (the broker is down or out of
 * reach), and none before it first joined (the metric reads -1), so contact begins once every consumer is a member
 * again, after a start as after an outage. A channel without a consumer (disabled in a test) holds nothing up.
 *
 * <h2>Threads</h2>
 * {@link #since} is called by the lease sweep's tick on the event loop (and by tests), one call at a time; reading a
 * consumer's metrics is safe from any thread and does not block.
 */
@ApplicationScoped
class OutcomeContact {

    private static final Logger LOG = Logger.getLogger(OutcomeContact.class);
    private static final List<String> CHANNELS = List.of(Channels.JOB_COMPLETED_IN, Channels.JOB_FAILED_IN);
    private static final String HEARTBEAT_AGE = "last-heartbeat-seconds-ago";
    /** Kafka's default, for a consumer whose configuration does not say. */
    private static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(45);

    @Inject KafkaClientService clients;

    /** When the current contact began; {@code null} while it is lost (and before the first one). */
    private Instant since;
    /** Whether contact was ever lost, so that its return is logged (the first contact after a start is not news). */
    private boolean lost;

    /**
     * Samples the consumers at {@code now}: the instant since which every one has been in contact, or {@code null} when
     * one is not. Contact that breaks between two samples shorter than a session timeout is not seen, and needs not
     * be: the outcomes it held back arrive within the lease's grace.
     */
    synchronized Instant since(Instant now) {
        boolean inContact = true;
        for (String channel : CHANNELS) {
            for (KafkaConsumer<Object, Object> consumer : clients.<Object, Object>getConsumers(channel)) {
                inContact &= inContact(consumer);
            }
        }
        Instant previous = since;
        since = next(previous, inContact, now);
        if (previous != null && since == null) {
            lost = true;
            LOG.warnf("the consumers of outcomes lost the broker: no lease expires until they have been back for"
                    + " lease.sweep-after-start");
        } else if (previous == null && since != null && lost) {
            LOG.infof("the consumers of outcomes are back in their group since %s", since);
        }
        return since;
    }

    /** The pure rule: contact that holds keeps its start, contact that begins starts now, contact lost has none. */
    static Instant next(Instant since, boolean inContact, Instant now) {
        if (!inContact) {
            return null;
        }
        return since != null ? since : now;
    }

    private static boolean inContact(KafkaConsumer<Object, Object> consumer) {
        Duration sessionTimeout = sessionTimeout(consumer.configuration());
        for (Map.Entry<MetricName, ? extends Metric> metric : consumer.unwrap().metrics().entrySet()) {
            if (HEARTBEAT_AGE.equals(metric.getKey().name()) && metric.getValue().metricValue() instanceof Number age) {
                return heardWithin(age.doubleValue(), sessionTimeout);
            }
        }
        return false;
    }

    /**
     * Whether a last heartbeat {@code ageSeconds} ago is recent enough that the coordinator still counts the member;
     * Kafka reports -1 before the first one.
     */
    static boolean heardWithin(double ageSeconds, Duration sessionTimeout) {
        return ageSeconds >= 0 && ageSeconds * 1000 <= sessionTimeout.toMillis();
    }

    private static Duration sessionTimeout(Map<String, ?> configuration) {
        Object value = configuration.get("session.timeout.ms");
        if (value == null) {
            return DEFAULT_SESSION_TIMEOUT;
        }
        return Duration.ofMillis(Long.parseLong(value.toString()));
    }
}
