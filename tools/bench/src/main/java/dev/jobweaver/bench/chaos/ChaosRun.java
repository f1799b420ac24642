package dev.jobweaver.bench.chaos;

import dev.jobweaver.local.KafkaBroker;
import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.Postgres;
import dev.jobweaver.local.ServiceProcess;
import dev.jobweaver.bench.ApiClient;
import dev.jobweaver.bench.JobKind;
import dev.jobweaver.bench.RateSchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A fault-injection run against a running {@link Platform}: no-op jobs at a fixed rate (open loop) while, every
 * interval, one target is SIGKILLed (a service, the Kafka broker or PostgreSQL); then it waits for every accepted job
 * to end and reports what became of them ({@link ChaosReport}).
 *
 * <p>A killed service comes back through the platform's supervisor; Kafka and PostgreSQL have none, so the run starts
 * them again itself after {@link Settings#down()}. At the end every target is running again, so the platform can be
 * used on (the end-to-end suite runs its next scenarios on it).
 */
public final class ChaosRun {

    /**
     * Requests waiting for an answer at most; beyond it a due submission is not sent (and counted). A hung API would
     * otherwise pile up rate × timeout requests (12,000 at 200/s).
     */
    public static final int MAX_IN_FLIGHT = 5_000;
    /** How long a killed target may take to be ready again before the run says it is not back. */
    static final Duration BACK_TIMEOUT = Duration.ofMinutes(3);
    /** Between two progress lines. */
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    /** Between two polls of the databases while waiting for the jobs to end. */
    static final Duration POLL_EVERY = Duration.ofSeconds(2);
    /** How many times Kafka or PostgreSQL is started again after a kill before the run gives up on it. */
    static final int START_ATTEMPTS = 3;

    /**
     * What a run does.
     *
     * @param duration how long jobs are submitted (and targets killed)
     * @param rate jobs per second offered
     * @param interval time between two kills; the first comes one interval after the start
     * @param seed chooses the order of the targets ({@link KillPlan})
     * @param waitForJobs how long to wait after the submissions for every accepted job to end
     * @param down how long Kafka or PostgreSQL stays dead before the run starts it again
     */
    public record Settings(Duration duration, double rate, Duration interval, long seed, Duration waitForJobs,
                           Duration down) {

        /** How long the run waits at the end for the accepted jobs to end, unless told otherwise. */
        public static final Duration DEFAULT_WAIT = Duration.ofMinutes(5);
        /** How long Kafka and PostgreSQL stay dead, unless told otherwise. */
        public static final Duration DEFAULT_DOWN = Duration.ofSeconds(3);

        /** Refuses settings under which nothing would be submitted or killed. */
        public Settings {
            requirePositive(duration, "the duration");
            requirePositive(interval, "the interval");
            requirePositive(waitForJobs, "the wait");
            if (down.isNegative()) {
                throw new IllegalArgumentException("the time Kafka and PostgreSQL stay down cannot be negative");
            }
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("the rate must be a positive number of jobs per second");
            }
            if (interval.compareTo(duration) >= 0) {
                throw new IllegalArgumentException("the interval (" + ChaosReport.human(interval)
                        + ") is not shorter than the duration (" + ChaosReport.human(duration)
                        + "): nothing would be killed");
            }
            if (new RateSchedule(rate, duration).count() < 1) {
                throw new IllegalArgumentException("at " + rate + " jobs/s for " + ChaosReport.human(duration)
                        + " not one job would be submitted");
            }
        }

        /** The settings with the default wait and down time. */
        public Settings(Duration duration, double rate, Duration interval, long seed) {
            this(duration, rate, interval, seed, DEFAULT_WAIT, DEFAULT_DOWN);
        }

        /** How many kills the run makes: one at every whole interval strictly inside the duration. */
        public int kills() {
            return (int) ((duration.toNanos() - 1) / interval.toNanos());
        }

        private static void requirePositive(Duration d, String what) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive");
            }
        }
    }

    private final Platform platform;
    private final Settings settings;
    private final Consumer<String> out;
    private final ConcurrentLinkedQueue<Submitted> submissions = new ConcurrentLinkedQueue<>();
    private final List<CompletableFuture<Kill>> kills = new CopyOnWriteArrayList<>();
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger acceptedSoFar = new AtomicInteger();
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private volatile long startNanos;
    private volatile boolean submitting;

    /**
     * @param platform a started platform, with the API, the scheduler and the worker; the run kills its processes
     * @param settings what to do
     * @param out where the run's lines go (each starts with the time since the run began)
     */
    public ChaosRun(Platform platform, Settings settings, Consumer<String> out) {
        this.platform = platform;
        this.settings = settings;
        this.out = out;
    }

    /**
     * Submits and kills for the duration, brings every target back, waits for the accepted jobs to end and reports.
     * Blocks until done: the duration, plus the time the jobs take to end (at most the wait), plus a few seconds.
     */
    public ChaosReport run() {
        List<ServiceProcess> apis = platform.instances(Service.API);
        if (apis.isEmpty() || platform.instances(Service.SCHEDULER).isEmpty()
                || platform.instances(Service.WORKER).isEmpty()) {
            throw new IllegalStateException("the platform runs without one of its services: build them first");
        }
        Instant startedAt;
        long submissionsEnded;
        try (ApiClient api = new ApiClient(apis.getFirst().url(), platform.adminKey().orElse(null))) {
            startedAt = Instant.now();
            startNanos = System.nanoTime();
            submitting = true;
            say(String.format(Locale.ROOT, "chaos: %s jobs/s for %s, a kill every %s (%d kills, seed %d)",
                    number(settings.rate()),
                    ChaosReport.human(settings.duration()), ChaosReport.human(settings.interval()), settings.kills(),
                    settings.seed()));
            Thread killer = Thread.ofVirtual().name("chaos-kills").start(this::killEveryInterval);
            Thread progress = Thread.ofVirtual().name("chaos-progress").start(this::printProgress);
            int offered = submit(api);
            submissionsEnded = System.nanoTime();
            submitting = false;
            say(String.format(Locale.ROOT, "submissions stopped: %,d sent; waiting for the last answers", offered));
            if (!inFlight.tryAcquire(MAX_IN_FLIGHT, 90, TimeUnit.SECONDS)) {
                // ApiClient answers every request within its timeout (60 s), so this should never happen.
                say("some requests still had no answer after 90 s; the report leaves them out");
            }
            join(killer);
            progress.interrupt();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the chaos run was interrupted", e);
        }
        bringEverythingBack();
        List<Submitted> sent = List.copyOf(submissions);
        List<UUID> accepted = sent.stream().filter(Submitted::accepted).map(Submitted::jobId).toList();
        ChaosDb db = new ChaosDb(platform.stack().postgres().port());
        boolean allEnded = awaitTerminal(db, accepted);
        Duration settledAfter = allEnded ? Duration.ofNanos(System.nanoTime() - submissionsEnded) : null;
        Map<UUID, JobState> states = readStates(db, accepted);
        List<Kill> done = kills.stream().map(CompletableFuture::join).toList();
        return ChaosReport.of(settings, startedAt, sent, states, done, settledAfter);
    }

    /** Prints {@code line} after the time since the run began (the platform's supervisor lines come here too). */
    public void say(String line) {
        long start = startNanos;
        out.accept(start == 0 ? line
                : String.format(Locale.ROOT, "[%6.1f s] %s", (System.nanoTime() - start) / 1e9, line.strip()));
    }

    /** Open loop: each job is due at its time on the schedule, whatever became of the ones before; returns how many. */
    private int submit(ApiClient api) {
        RateSchedule schedule = new RateSchedule(settings.rate(), settings.duration());
        String body = JobKind.NOOP.body();
        int count = schedule.count();
        for (int i = 0; i < count; i++) {
            long due = startNanos + schedule.offsetNanos(i);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            Instant at = Instant.now();
            if (!inFlight.tryAcquire()) {
                submissions.add(new Submitted(at, Submitted.NOT_SENT, null, "not sent: " + MAX_IN_FLIGHT
                        + " requests were waiting for an answer"));
                continue;
            }
            api.submit(body).whenComplete((answer, e) -> {
                Submitted s = answer == null
                        ? new Submitted(at, 0, null, String.valueOf(e))
                        : new Submitted(at, answer.status(), answer.jobId(),
                        answer.accepted() ? null : shorten(answer.body()));
                submissions.add(s);
                answered.incrementAndGet();
                if (s.accepted()) {
                    acceptedSoFar.incrementAndGet();
                }
                inFlight.release();
            });
        }
        return count;
    }

    private void printProgress() {
        try {
            while (submitting) {
                Thread.sleep(PROGRESS_EVERY);
                int done = answered.get();
                int accepted = acceptedSoFar.get();
                say(String.format(Locale.ROOT, "%,d answered: %,d accepted, %,d refused; %,d waiting for an answer",
                        done, accepted, done - accepted, MAX_IN_FLIGHT - inFlight.availablePermits()));
            }
        } catch (InterruptedException e) {
            // the submissions ended
        }
    }

    /** Kills one target at every whole interval inside the duration, in the order of the seed's {@link KillPlan}. */
    private void killEveryInterval() {
        KillPlan plan = new KillPlan(settings.seed());
        for (int k = 1; k <= settings.kills(); k++) {
            long due = startNanos + k * settings.interval().toNanos();
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            Target target = plan.next();
            try {
                if (target.isService()) {
                    killService(target, plan);
                } else {
                    kills.add(CompletableFuture.completedFuture(killInfrastructure(target)));
                }
            } catch (RuntimeException e) {
                say("killing " + target.label() + " failed: " + e);
            }
        }
    }

    private void killService(Target target, KillPlan plan) {
        List<ServiceProcess> instances = platform.instances(target.service());
        ServiceProcess victim = instances.get(plan.instance(instances.size()));
        Process process = victim.process();
        long pid = process != null && process.isAlive() ? process.pid() : -1;
        String name = victim.spec().name();
        say(pid < 0 ? name + " is not running (its restart is under way): nothing to kill"
                : "kill -9 " + name + " (pid " + pid + ")");
        double at = elapsed();
        victim.kill();
        kills.add(CompletableFuture.supplyAsync(() -> awaitServiceBack(target, victim, process, pid, at),
                runnable -> Thread.ofVirtual().name("chaos-back-" + name).start(runnable)));
    }

    /**
     * Waits until the supervisor has started a new process for {@code victim} and it is ready. A start can fail
     * (killed again, or its database was down as it started): then it waits for the supervisor's next attempt.
     */
    private Kill awaitServiceBack(Target target, ServiceProcess victim, Process killed, long pid, double at) {
        String name = victim.spec().name();
        long deadline = System.nanoTime() + BACK_TIMEOUT.toNanos();
        Process old = killed;
        while (System.nanoTime() < deadline) {
            Process current = victim.process();
            if (current != null && current != old && current.isAlive()) {
                try {
                    victim.awaitReady(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                    double back = elapsed() - at;
                    say(String.format(Locale.ROOT, "%s is back: ready %.1f s after the kill", name, back));
                    return new Kill(target, name, pid, at, back);
                } catch (IllegalStateException e) {
                    old = current;
                }
            }
            sleep(Duration.ofMillis(200));
        }
        say(name + " is NOT back " + BACK_TIMEOUT.toSeconds() + " s after its kill");
        return new Kill(target, name, pid, at, Double.NaN);
    }

    /** SIGKILL to the broker or the database server, a pause, then a start on the same data (log or WAL recovery). */
    private Kill killInfrastructure(Target target) {
        KafkaBroker kafka = platform.stack().kafka();
        Postgres postgres = platform.stack().postgres();
        String name = target.label();
        long pid = target == Target.KAFKA ? kafka.pid() : postgres.pid();
        say(pid < 0 ? name + " is not running: nothing to kill" : "kill -9 " + name + " (pid " + pid + ")");
        double at = elapsed();
        if (target == Target.KAFKA) {
            kafka.kill();
        } else {
            postgres.kill();
        }
        sleep(settings.down());
        say("starting " + name + " again");
        boolean started = start(target);
        double back = elapsed() - at;
        if (started) {
            say(String.format(Locale.ROOT, "%s is back: ready %.1f s after the kill", name, back));
        }
        return new Kill(target, name, pid, at, started ? back : Double.NaN);
    }

    /** Starts Kafka or PostgreSQL, trying again a few times; false when every attempt failed. */
    private boolean start(Target target) {
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                if (target == Target.KAFKA) {
                    platform.stack().kafka().start();
                } else {
                    platform.stack().postgres().start();
                }
                return true;
            } catch (RuntimeException e) {
                say("starting " + target.label() + " failed (attempt " + attempt + " of " + START_ATTEMPTS + "): "
                        + e.getMessage());
                sleep(Duration.ofSeconds(5));
            }
        }
        return false;
    }

    /**
     * After the last kill: Kafka and PostgreSQL running, every service instance ready. What is not back within
     * {@link #BACK_TIMEOUT} is said; the accepted jobs are then waited for anyway.
     */
    private void bringEverythingBack() {
        if (!platform.stack().kafka().isRunning()) {
            say("kafka is not running: starting it");
            start(Target.KAFKA);
        }
        if (!platform.stack().postgres().isRunning()) {
            say("postgres is not running: starting it");
            start(Target.POSTGRES);
        }
        for (Service service : Service.values()) {
            for (ServiceProcess instance : platform.instances(service)) {
                long deadline = System.nanoTime() + BACK_TIMEOUT.toNanos();
                while (!instance.isAlive() && System.nanoTime() < deadline) {
                    sleep(Duration.ofMillis(200));
                }
                try {
                    instance.awaitReady(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                } catch (IllegalStateException e) {
                    say(instance.spec().name() + " is not ready: " + e.getMessage());
                }
            }
        }
    }

    /** Polls the API's database until every accepted job has ended or the wait is over; true when all ended. */
    private boolean awaitTerminal(ChaosDb db, List<UUID> accepted) {
        Set<UUID> open = new HashSet<>(accepted);
        say(String.format(Locale.ROOT, "waiting up to %s for the %,d accepted jobs to end",
                ChaosReport.human(settings.waitForJobs()), accepted.size()));
        long deadline = System.nanoTime() + settings.waitForJobs().toNanos();
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        String problem = null;
        while (!open.isEmpty()) {
            try {
                open.removeAll(db.terminal(open));
                problem = null;
            } catch (IllegalStateException e) {
                if (problem == null) {
                    say("cannot read the jobs' status yet: " + e.getMessage());
                }
                problem = e.getMessage();
            }
            if (open.isEmpty() || System.nanoTime() > deadline) {
                break;
            }
            if (System.nanoTime() > nextProgress) {
                say(String.format(Locale.ROOT, "%,d of %,d accepted jobs not ended yet", open.size(),
                        accepted.size()));
                nextProgress += PROGRESS_EVERY.toNanos();
            }
            sleep(POLL_EVERY);
        }
        say(open.isEmpty() ? "every accepted job has ended"
                : String.format(Locale.ROOT, "%,d accepted jobs had not ended after %s", open.size(),
                ChaosReport.human(settings.waitForJobs())));
        return open.isEmpty();
    }

    /** The final state of every accepted job, trying again for a while if the database cannot be read. */
    private Map<UUID, JobState> readStates(ChaosDb db, List<UUID> accepted) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            try {
                return db.states(accepted);
            } catch (IllegalStateException e) {
                last = e;
                sleep(Duration.ofSeconds(3));
            }
        }
        throw new IllegalStateException("cannot read the jobs' final state: " + last.getMessage(), last);
    }

    private double elapsed() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static String shorten(String text) {
        if (text == null) {
            return null;
        }
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static void join(Thread thread) throws InterruptedException {
        // The last kill may still be starting Kafka or PostgreSQL (at most START_ATTEMPTS starts of 90 s).
        if (!thread.join(Duration.ofMinutes(5))) {
            throw new IllegalStateException("the kills did not end within 5 minutes of the submissions");
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
