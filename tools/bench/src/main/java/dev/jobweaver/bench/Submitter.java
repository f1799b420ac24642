package dev.jobweaver.bench;

import java.time.Instant;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/** Sends jobs: closed loop with bounded concurrency (burst), or open loop on a rate schedule (steady). */
public final class Submitter {

    /** Submission stops when this many requests failed before any was accepted: the API refuses everything. */
    static final int GIVE_UP_AFTER = 100;
    /** Open loop: at most this many requests in flight, so a stalled API cannot exhaust the bench. */
    static final int OPEN_LOOP_CAP = 20_000;

    private final ApiClient api;

    /** A submitter through {@code api}. */
    public Submitter(ApiClient api) {
        this.api = api;
    }

    /** Sends {@code count} jobs with at most {@code concurrency} in flight, handing each accepted one to {@code sink}. */
    public Submission burst(int count, int concurrency, IntFunction<JobKind> kinds, Consumer<Accepted> sink,
                            Progress progress) {
        return burst(count, concurrency, kinds, i -> Control.NONE, sink, progress);
    }

    /** {@link #burst(int, int, IntFunction, Consumer, Progress)}, job {@code i} sent with {@code controls(i)}. */
    public Submission burst(int count, int concurrency, IntFunction<JobKind> kinds, IntFunction<Control> controls,
                            Consumer<Accepted> sink, Progress progress) {
        Tally tally = new Tally();
        Semaphore permits = new Semaphore(concurrency);
        Instant start = Instant.now();
        long t0 = System.nanoTime();
        int offered = 0;
        for (int i = 0; i < count && !tally.hopeless(); i++) {
            permits.acquireUninterruptibly();
            offered++;
            send(kinds.apply(i), controls.apply(i), tally, sink, progress).whenComplete((a, e) -> permits.release());
        }
        permits.acquireUninterruptibly(concurrency);
        return tally.submission(offered, start, (System.nanoTime() - t0) / 1e9, 0);
    }

    /** Sends on {@code schedule} without waiting for answers (open loop), handing each accepted job to {@code sink}. */
    public Submission openLoop(RateSchedule schedule, Consumer<Accepted> sink, Progress progress) {
        return openLoop(schedule, i -> Control.NONE, sink, progress);
    }

    /** {@link #openLoop(RateSchedule, Consumer, Progress)}, no-op job {@code i} sent with {@code controls(i)}. */
    public Submission openLoop(RateSchedule schedule, IntFunction<Control> controls, Consumer<Accepted> sink,
                               Progress progress) {
        return openLoop(schedule, controls, sink, progress, () -> false);
    }

    /**
     * {@link #openLoop(RateSchedule, IntFunction, Consumer, Progress)} that also stops sending as soon as {@code stop}
     * answers true (asked before each send): a load offered for as long as something else takes, the schedule's
     * duration its cap.
     */
    public Submission openLoop(RateSchedule schedule, IntFunction<Control> controls, Consumer<Accepted> sink,
                               Progress progress, java.util.function.BooleanSupplier stop) {
        Tally tally = new Tally();
        Semaphore inFlight = new Semaphore(OPEN_LOOP_CAP);
        int count = schedule.count();
        Instant start = Instant.now();
        long t0 = System.nanoTime();
        long maxLag = 0;
        int offered = 0;
        for (int i = 0; i < count && !tally.hopeless() && !stop.getAsBoolean(); i++) {
            long due = t0 + schedule.offsetNanos(i);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            maxLag = Math.max(maxLag, System.nanoTime() - due);
            inFlight.acquireUninterruptibly();
            offered++;
            send(JobKind.NOOP, controls.apply(i), tally, sink, progress).whenComplete((a, e) -> inFlight.release());
        }
        inFlight.acquireUninterruptibly(OPEN_LOOP_CAP);
        return tally.submission(offered, start, (System.nanoTime() - t0) / 1e9, maxLag / 1e6);
    }

    private java.util.concurrent.CompletableFuture<ApiClient.Answer> send(JobKind kind, Control control, Tally tally,
                                                                          Consumer<Accepted> sink, Progress progress) {
        String body = control.body(kind);
        Instant at = Instant.now();
        long sentNanos = System.nanoTime();
        return api.submit(body, control.idempotencyKey()).whenComplete((answer, e) -> {
            double ms = (System.nanoTime() - sentNanos) / 1e6;
            if (answer != null && answer.accepted()) {
                tally.accepted.incrementAndGet();
                sink.accept(new Accepted(answer.jobId(), kind, at, ms, control));
            } else {
                tally.rejected.incrementAndGet();
                String why = answer == null ? String.valueOf(e) : answer.status() + " " + answer.body();
                tally.firstRejection.compareAndSet(null, why.length() > 300 ? why.substring(0, 300) + "..." : why);
            }
            progress.sent();
        });
    }

    /** Counters shared by the answer callbacks. */
    private static final class Tally {
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger rejected = new AtomicInteger();
        final AtomicReference<String> firstRejection = new AtomicReference<>();

        boolean hopeless() {
            return accepted.get() == 0 && rejected.get() >= GIVE_UP_AFTER;
        }

        Submission submission(int offered, Instant start, double seconds, double maxLagMs) {
            return new Submission(offered, accepted.get(), rejected.get(), firstRejection.get(), start, seconds,
                    maxLagMs);
        }
    }
}
