package dev.jobweaver.api.notification;

import dev.jobweaver.api.notification.DeliveryStore.Claimed;
import dev.jobweaver.api.notification.DeliveryStore.Outcome;
import dev.jobweaver.common.quarantine.Failures;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Sends due deliveries: claims them ({@code FOR UPDATE SKIP LOCKED}, leased for {@code lease}), POSTs each signed
 * (Standard Webhooks) on a virtual thread of its own, and records every attempt.
 *
 * <h2>Bounds</h2>
 * At most {@code max-in-flight} deliveries are being sent by this instance, and at most
 * {@code max-in-flight-per-subscription} of one subscription: the claim leaves a subscription's deliveries beyond its
 * free slots in the table, so an endpoint that never answers holds its own slots (each for at most connect-timeout +
 * request-timeout) and the other subscriptions keep flowing.
 *
 * <h2>When it claims</h2>
 * When woken: by the intake once deliveries were made, by every finished send (a slot came free), and, as a backstop,
 * every {@code poll-interval} (retries coming due, deliveries another instance made or left behind). A retry due sooner
 * than the poll interval wakes it with a timer. Claims run one at a time, on a virtual thread; a wake during a claim
 * makes it claim again.
 *
 * <h2>Outcomes</h2>
 * A 2xx answer makes the delivery DELIVERED. Anything else (another status, a redirect (never followed), a timeout, a
 * refused connection, a destination the rules refuse at this attempt) records the attempt and retries it as
 * {@link RetryPolicy} says, until {@code give-up-after} has passed since the delivery was made: then GIVEN_UP. An
 * instance that dies mid-send records nothing; the lease ends and the delivery is due again (at least once).
 *
 * <p>Secrets sign requests and never reach a log line.
 */
@ApplicationScoped
public class DeliverySender {

    private static final Logger LOG = Logger.getLogger(DeliverySender.class);
    /** Most characters of an attempt's error kept in the log. */
    private static final int MAX_ERROR = 1000;
    /** How long a claim or a record waits for the database before the sender leaves it to the next wake. */
    private static final Duration DATABASE_WAIT = Duration.ofSeconds(30);

    private final DeliveryStore store;
    private final WebhookDestinations destinations;
    private final NotificationMetrics metrics;
    private final NotificationConfig config;
    private final RetryPolicy retries;
    private final HttpClient http;
    private final ScheduledExecutorService timer;

    /** Guards {@link #sending} and {@link #sendingPerSubscription}. */
    private final Object slots = new Object();
    private int sending;
    private final Map<UUID, Integer> sendingPerSubscription = new HashMap<>();

    private final AtomicBoolean claiming = new AtomicBoolean();
    private final AtomicBoolean wanted = new AtomicBoolean();
    private volatile boolean stopped;
    /** When the last claim failure was logged, to log a database outage once, not at every wake. */
    private volatile long lastClaimFailureLog;

    public DeliverySender(DeliveryStore store, WebhookDestinations destinations, NotificationMetrics metrics,
                          NotificationConfig config) {
        this.store = store;
        this.destinations = destinations;
        this.metrics = metrics;
        this.config = config;
        this.retries = new RetryPolicy(config.firstRetryDelay(), config.maxRetryDelay(), config.giveUpAfter());
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("webhook-retry-timer")
                .factory());
        metrics.inFlight(this::inFlight);
    }

    /** Deliveries being sent by this instance now. */
    public int inFlight() {
        synchronized (slots) {
            return sending;
        }
    }

    /** The backstop: retries that came due, and what another instance made or left. */
    @Scheduled(every = "${jobweaver.api.notifications.poll-interval}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        wake();
    }

    /** Claims due deliveries soon, on a virtual thread; returns at once. */
    public void wake() {
        wanted.set(true);
        if (stopped || !claiming.compareAndSet(false, true)) {
            return; // the running claim loop sees the wish
        }
        Thread.ofVirtual().name("webhook-claim").start(this::claimLoop);
    }

    void stop(@Observes ShutdownEvent shutdown) {
        stopped = true;
        timer.shutdownNow();
        // sends in flight end within their timeouts or with the process; an unrecorded one is due again after its lease
    }

    private void claimLoop() {
        try {
            while (!stopped && wanted.getAndSet(false)) {
                claimWhileRoom();
            }
        } finally {
            claiming.set(false);
            if (wanted.get() && !stopped) {
                wake(); // a wish that arrived after the loop's last look
            }
        }
    }

    /** Claims and starts deliveries while there are free slots and due deliveries. */
    private void claimWhileRoom() {
        while (!stopped) {
            int free;
            Map<UUID, Integer> busy;
            synchronized (slots) {
                free = config.maxInFlight() - sending;
                busy = Map.copyOf(sendingPerSubscription);
            }
            if (free <= 0) {
                return; // a finishing send wakes the sender
            }
            int limit = Math.min(free, config.claimBatchSize());
            List<Claimed> claimed;
            try {
                claimed = store.claim(limit, busy, config.maxInFlightPerSubscription(), config.lease())
                        .await().atMost(DATABASE_WAIT);
            } catch (RuntimeException e) {
                long now = System.currentTimeMillis();
                if (now - lastClaimFailureLog > 10_000) {
                    lastClaimFailureLog = now;
                    LOG.warnf("could not claim webhook deliveries (%s); trying again at the next wake",
                            Failures.describe(e));
                }
                return;
            }
            for (Claimed delivery : claimed) {
                synchronized (slots) {
                    sending++;
                    sendingPerSubscription.merge(delivery.subscriptionId(), 1, Integer::sum);
                }
                Thread.ofVirtual().name("webhook-send").start(() -> send(delivery));
            }
            if (claimed.size() < limit) {
                return;
            }
        }
    }

    /** One attempt of {@code delivery}, recorded; then its slots are free again. */
    private void send(Claimed delivery) {
        try {
            Outcome outcome = attempt(delivery);
            record(delivery, outcome);
        } catch (RuntimeException e) {
            LOG.errorf(e, "webhook delivery %s failed unexpectedly; it is sent again once its lease ends",
                    delivery.id());
        } finally {
            synchronized (slots) {
                sending--;
                sendingPerSubscription.computeIfPresent(delivery.subscriptionId(), (id, n) -> n > 1 ? n - 1 : null);
            }
            wake();
        }
    }

    /** POSTs the delivery once and says what came of it. */
    private Outcome attempt(Claimed delivery) {
        Instant attemptedAt = Instant.now();
        long started = System.nanoTime();
        Integer status = null;
        String error;
        try {
            URI url = URI.create(delivery.url());
            String refusal = destinations.refusal(url);
            if (refusal != null) {
                error = "destination refused: " + refusal;
            } else {
                status = post(url, delivery, attemptedAt.getEpochSecond());
                error = status / 100 == 2 ? null : "answered HTTP " + status;
            }
        } catch (HttpConnectTimeoutException e) {
            error = "no connection within " + config.connectTimeout().toMillis() + " ms";
        } catch (HttpTimeoutException e) {
            error = "no answer within " + config.requestTimeout().toMillis() + " ms";
        } catch (ConnectException e) {
            error = "connection refused" + (e.getMessage() == null ? "" : ": " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            error = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted while sending";
        }
        long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        Instant now = Instant.now();
        if (error == null) {
            metrics.delivered(Duration.between(delivery.changedAt(), now));
            return new Outcome(delivery.id(), delivery.attempt(), attemptedAt, status, null, durationMs,
                    DeliveryState.DELIVERED.name(), null, now);
        }
        error = error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR - 1) + "…" : error;
        Instant next = retries.nextAttempt(delivery.attempt(), delivery.createdAt(), now);
        if (next == null) {
            metrics.givenUp();
            // a workflow run's end has no job: its body names the run
            LOG.warnf("gave up webhook delivery %s (%s of %s to subscription %s) after %d attempts: %s",
                    delivery.id(), delivery.event(), delivery.jobId() != null ? "job " + delivery.jobId()
                            : "a workflow run", delivery.subscriptionId(), delivery.attempt(), error);
            return new Outcome(delivery.id(), delivery.attempt(), attemptedAt, status, error, durationMs,
                    DeliveryState.GIVEN_UP.name(), null, now);
        }
        metrics.failed();
        LOG.debugf("webhook delivery %s attempt %d failed (%s); next attempt at %s", delivery.id(), delivery.attempt(),
                error, next);
        long untilDue = Duration.between(now, next).toMillis();
        if (untilDue < config.pollInterval().toMillis() && !stopped) {
            // sooner than the backstop would notice
            timer.schedule(this::wake, Math.max(1, untilDue), TimeUnit.MILLISECONDS);
        }
        return new Outcome(delivery.id(), delivery.attempt(), attemptedAt, status, error, durationMs,
                DeliveryState.PENDING.name(), next, null);
    }

    /** The answer's status; the body is not read. */
    private int post(URI url, Claimed delivery, long timestamp) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(config.requestTimeout())
                .header("content-type", "application/json")
                .header("webhook-id", delivery.id().toString())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", WebhookSignature.sign(delivery.secret(), delivery.id().toString(),
                        timestamp, delivery.body()))
                .POST(HttpRequest.BodyPublishers.ofString(delivery.body(), StandardCharsets.UTF_8))
                .build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream ignored = response.body()) {
            // closed unread: a subscriber's answer body means nothing here, and one that never ends cannot hold a slot
            return response.statusCode();
        }
    }

    /** Records the outcome, retrying a transient database failure a few times. */
    private void record(Claimed delivery, Outcome outcome) {
        try {
            store.record(outcome)
                    .onFailure(Failures::isTransient).retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(2))
                    .atMost(5)
                    .await().atMost(DATABASE_WAIT);
        } catch (RuntimeException e) {
            LOG.warnf("could not record attempt %d of webhook delivery %s (%s); it is sent again once its lease ends",
                    outcome.attempt(), delivery.id(), Failures.describe(e));
        }
    }
}
