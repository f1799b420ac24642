package dev.jobweaver.e2e.support;

import dev.jobweaver.e2e.support.JobWeaverClient.Answer;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Submits jobs (no-op ones unless told otherwise) from a few clients while a fault happens, and sorts the answers: accepted (202), unavailable
 * (503) and anything else, which a fault scenario expects to be empty.
 */
public final class SubmissionLoad implements AutoCloseable {

    private final ConcurrentLinkedQueue<UUID> accepted = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Answer> unavailable = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Answer> unexpected = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean submitting = new AtomicBoolean(true);
    private final ExecutorService clients;

    /** Starts {@code clients} clients, each submitting one no-op job, then pausing {@code pauseMillis}, until closed. */
    public SubmissionLoad(JobWeaverClient api, int clients, long pauseMillis) {
        this(api, clients, pauseMillis, Jobs.noop());
    }

    /** Likewise with {@code job} as every request's body. */
    public SubmissionLoad(JobWeaverClient api, int clients, long pauseMillis, String job) {
        this.clients = Executors.newFixedThreadPool(clients);
        for (int i = 0; i < clients; i++) {
            this.clients.submit(() -> {
                while (submitting.get()) {
                    Answer answer;
                    try {
                        answer = api.submit(job);
                    } catch (RuntimeException e) {
                        // the API itself unreachable: not an answer, and not a job
                        E2ePlatform.awaitQuietly(200);
                        continue;
                    }
                    switch (answer.status()) {
                        case 202 -> accepted.add(answer.jobId());
                        case 503 -> unavailable.add(answer);
                        default -> unexpected.add(answer);
                    }
                    E2ePlatform.awaitQuietly(pauseMillis);
                }
            });
        }
    }

    /** The jobs answered 202 so far. */
    public List<UUID> accepted() {
        return List.copyOf(accepted);
    }

    /** The 503 answers so far. */
    public List<Answer> unavailable() {
        return List.copyOf(unavailable);
    }

    /** Answers other than 202 and 503. */
    public List<Answer> unexpected() {
        return List.copyOf(unexpected);
    }

    /** One step of a fault: stopping or starting a part of the platform, or waiting while it is down. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    /**
     * A fault under this load, which is closed after it: 2 s of load, {@code stop}, {@code whileDown}, {@code start}
     * (also when {@code whileDown} fails), then {@code settleMillis} more of load.
     *
     * @return {@link System#nanoTime} right after {@code start}: what a scenario's recovery counts from
     */
    public long around(Step stop, Step whileDown, Step start, long settleMillis) throws Exception {
        long restarted;
        try (this) {
            Thread.sleep(2_000);
            stop.run();
            try {
                whileDown.run();
            } finally {
                start.run();
                restarted = System.nanoTime();
            }
            Thread.sleep(settleMillis);
        }
        return restarted;
    }

    /** Stops submitting and waits for the clients' last requests. */
    @Override
    public void close() {
        submitting.set(false);
        clients.shutdown();
        try {
            if (!clients.awaitTermination(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the load's clients did not stop within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
