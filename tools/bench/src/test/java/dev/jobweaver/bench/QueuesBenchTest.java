package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The queues workload's jobs, its reading of {@code GET /api/queues}, when it cannot run, and its judgement of which
 * worker ran each queue's jobs, against a stub API.
 */
class QueuesBenchTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CWD = Path.of("/r");

    /** What a platform started with {@code --pool bench} answers: the standard worker on default, the pool on bench. */
    static final String BOTH = "{\"queues\":[{\"name\":\"bench\",\"pending\":0,\"running\":0,\"oldestPendingAgeMs\":0,"
            + "\"workers\":[{\"id\":\"worker-bench\",\"types\":[\"SIMULATION\",\"TRANSCODE\"],\"capacity\":32,"
            + "\"lastSeenAt\":\"2026-12-01T10:00:00Z\"}]},{\"name\":\"default\",\"pending\":3,\"running\":1,"
            + "\"oldestPendingAgeMs\":12,\"workers\":[{\"id\":\"worker-1\",\"types\":[\"SIMULATION\"],\"capacity\":32,"
            + "\"lastSeenAt\":\"2026-12-01T10:00:01Z\"}]}]}";

    /** The answer of a platform started without a pool: only the standard worker. */
    static final String DEFAULT_ONLY = "{\"queues\":[{\"name\":\"default\",\"pending\":0,\"running\":0,"
            + "\"oldestPendingAgeMs\":0,\"workers\":[{\"id\":\"worker-1\",\"types\":[\"SIMULATION\"],\"capacity\":32,"
            + "\"lastSeenAt\":\"2026-12-01T10:00:01Z\"}]}]}";

    @AutoClose
    private StubApi api;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    @Test
    void theJobsGoToQueueDefaultAndQueueBenchByTurns() throws Exception {
        List<String> queues = IntStream.range(0, 6).mapToObj(i -> QueuesBench.control(i).queue()).toList();
        assertThat(queues).containsExactly("default", "bench", "default", "bench", "default", "bench");
        JsonNode body = JSON.readTree(QueuesBench.control(1).body(JobKind.NOOP));
        assertThat(body.get("queue").asText()).isEqualTo("bench");
        assertThat(body.get("jobType").asText()).isEqualTo(QueuesBench.TYPE);
        assertThat(body.has("tenant")).isFalse();
        assertThat(QueuesBench.QUEUE).matches("[a-z0-9][a-z0-9-]{0,62}");
        assertThat(BenchOptions.parse(List.of(), CWD).workloads()).doesNotContain(Workload.QUEUES);
        assertThat(Workload.named("queues")).isEqualTo(Workload.QUEUES);
    }

    @Test
    void theQueuesAnswerIsReadByNameWithEachWorkersIdAndTypes() {
        Map<String, List<QueuesBench.Worker>> queues = QueuesBench.parse(BOTH);
        assertThat(queues).containsOnlyKeys("bench", "default");
        assertThat(queues.get("bench")).containsExactly(
                new QueuesBench.Worker("worker-bench", List.of("SIMULATION", "TRANSCODE")));
        assertThat(queues.get("default")).containsExactly(new QueuesBench.Worker("worker-1", List.of("SIMULATION")));
        assertThat(QueuesBench.workerIds(queues)).isEqualTo(Map.of("bench", Set.of("worker-bench"),
                "default", Set.of("worker-1")));
        // a queue with waiting jobs and no live worker is listed with none
        assertThat(QueuesBench.parse("{\"queues\":[{\"name\":\"x\",\"pending\":2,\"workers\":[]}]}"))
                .isEqualTo(Map.of("x", List.of()));
    }

    @Test
    void anAnswerThatIsNotAListOfNamedQueuesIsNotRead() {
        assertThat(QueuesBench.parse("not json")).isNull();
        assertThat(QueuesBench.parse(null)).isNull();
        assertThat(QueuesBench.parse("{\"items\":[]}")).isNull();
        assertThat(QueuesBench.parse("{\"queues\":{}}")).isNull();
        assertThat(QueuesBench.parse("{\"queues\":[{\"pending\":1}]}")).isNull();
    }

    @Test
    void eachQueueNeedsALiveWorkerOfTheBenchsTypeAndTheNoteSaysHowToGetOne() {
        assertThat(QueuesBench.missing(QueuesBench.parse(BOTH))).isNull();
        assertThat(QueuesBench.missing(QueuesBench.parse(DEFAULT_ONLY))).isEqualTo("no live worker of type SIMULATION "
                + "serves queue bench (no live worker) in /api/queues: start the platform with `./jobweaver up --pool "
                + "bench`, which runs a worker pool serving only queue bench beside the standard worker, which serves "
                + "default");
        Map<String, List<QueuesBench.Worker>> otherType = Map.of(
                "bench", List.of(new QueuesBench.Worker("images", List.of("image.resize"))),
                "default", List.of());
        assertThat(QueuesBench.missing(otherType)).startsWith("no live worker of type SIMULATION serves queue default "
                + "(no live worker) nor queue bench (live workers images [image.resize]) in /api/queues: start the "
                + "platform with `./jobweaver up --pool bench`");
    }

    /** Per job id, the worker that wrote its one execution row; a job absent here has none. */
    private final Map<UUID, String> ranOn = new HashMap<>();

    /** {@code count} COMPLETED no-op jobs with the controls of the workload, each run by {@code worker(i)}. */
    private List<JobRecord> jobs(int count, IntFunction<String> worker) {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            JobRecord job = Fixtures.completed(JobKind.NOOP, i, i + 10, i + 20)
                    .withControl(QueuesBench.control(i), null, null);
            ranOn.put(job.jobId(), worker.apply(i));
            jobs.add(job);
        }
        return jobs;
    }

    /** The rows of {@code ids} per worker, as {@link PlatformDb#executionsByWorker} counts them. */
    private Map<String, Long> rows(List<UUID> ids) {
        Map<String, Long> byWorker = new TreeMap<>();
        ids.stream().filter(ranOn::containsKey).forEach(id -> byWorker.merge(ranOn.get(id), 1L, Long::sum));
        return byWorker;
    }

    private static final Map<String, Set<String>> POOLS = Map.of("default", Set.of("worker-1"),
            "bench", Set.of("worker-bench"));

    @Test
    void everyRunByAWorkerOfItsQueueIsInsideItsPool() {
        List<JobRecord> jobs = jobs(10, i -> i % 2 == 0 ? "worker-1" : "worker-bench");
        QueueRuns runs = QueueRuns.of(QueuesBench.QUEUES, "default", jobs, POOLS, this::rows);
        assertThat(runs.queues()).extracting(QueueRuns.Queue::name).containsExactly("default", "bench");
        QueueRuns.Queue bench = runs.queue("bench");
        assertThat(bench.jobs()).isEqualTo(5);
        assertThat(bench.completed()).isEqualTo(5);
        assertThat(bench.runsByWorker()).isEqualTo(Map.of("worker-bench", 5L));
        assertThat(bench.outside()).isZero();
        // bench's jobs were submitted at 1, 3, 5, 7, 9 ms and finished at 21 ... 29: 5 jobs over 28 ms
        assertThat(bench.jobsPerSecond()).isCloseTo(5 / 0.028, org.assertj.core.data.Offset.offset(0.01));
        assertThat(runs.measured()).isTrue();
        assertThat(runs.runs()).isEqualTo(10);
        assertThat(runs.outside()).isZero();
        assertThat(runs.correctness().summary()).isEqualTo("10/10 as expected, 0 lost, 0 duplicated, 0 unexpected");
    }

    @Test
    void aRunByAWorkerOfAnotherQueueOrByNoneIsCountedOutsideAndIsACorrectnessFailure() {
        // the pool ran jobs 0 and 2 of queue default, the standard worker job 5 of queue bench, job 7 has no worker id
        List<JobRecord> jobs = jobs(10, i -> switch (i) {
            case 0, 2 -> "worker-bench";
            case 5 -> "worker-1";
            case 7 -> QueueRuns.NO_WORKER;
            default -> i % 2 == 0 ? "worker-1" : "worker-bench";
        });
        QueueRuns runs = QueueRuns.of(QueuesBench.QUEUES, "default", jobs, POOLS, this::rows);
        assertThat(runs.queue("default").outside()).isEqualTo(2);
        assertThat(runs.queue("bench").outside()).isEqualTo(2);
        assertThat(runs.outside()).isEqualTo(4);
        Correctness c = runs.correctness();
        assertThat(c.ok()).isFalse();
        assertThat(c.unexpected()).isEqualTo(4);
        assertThat(c.asExpected()).isEqualTo(6);
        assertThat(c.examples()).containsExactly(
                "2 execution rows of queue default's jobs written by worker worker-bench, which does not serve it "
                        + "(its workers: worker-1)",
                "1 execution rows of queue bench's jobs written by no worker id, which does not serve it (its "
                        + "workers: worker-bench)",
                "1 execution rows of queue bench's jobs written by worker worker-1, which does not serve it (its "
                        + "workers: worker-bench)");
        // the burst's own judgement of the same jobs passes: only the rows' workers tell
        WorkloadResult result = Fixtures.burst(jobs).withQueues(runs, "");
        assertThat(result.correctness().summary()).isEqualTo("16/20 as expected, 0 lost, 0 duplicated, 4 unexpected");
    }

    @Test
    void aWorkerServingBothQueuesIsInsideEitherPoolAndUnreadRowsJudgeNothing() {
        List<JobRecord> jobs = jobs(4, i -> "both");
        QueueRuns shared = QueueRuns.of(QueuesBench.QUEUES, "default", jobs,
                Map.of("default", Set.of("both"), "bench", Set.of("both", "worker-bench")), this::rows);
        assertThat(shared.outside()).isZero();
        assertThat(shared.correctness().ok()).isTrue();
        QueueRuns unread = QueueRuns.of(QueuesBench.QUEUES, "default", jobs, POOLS, ids -> null);
        assertThat(unread.measured()).isFalse();
        assertThat(unread.runs()).isZero();
        assertThat(unread.correctness().accepted()).isZero();
        // a job sent without a queue is of the default queue
        JobRecord plain = Fixtures.completed(JobKind.NOOP, 0, 1, 2);
        ranOn.put(plain.jobId(), "worker-1");
        assertThat(QueueRuns.of(QueuesBench.QUEUES, "default", List.of(plain), POOLS, this::rows).queue("default")
                .runsByWorker()).isEqualTo(Map.of("worker-1", 1L));
    }

    /** A stub API answering {@code GET /api/queues} by {@code answers}, one a request, the last one repeated. */
    private QueuesBench bench(Fake jobs, int status, String... answers) throws IOException {
        AtomicInteger asked = new AtomicInteger();
        api = StubApi.serving("/api/", (exchange, body) -> StubApi.answer(exchange, status,
                answers[Math.min(asked.getAndIncrement(), answers.length - 1)]));
        BenchOptions options = BenchOptions.parse(List.of("queues", "--jobs", "6"), CWD);
        return new QueuesBench(options, api.client(), jobs, new PrintStream(console, true));
    }

    /** Jobs that record what was sent and run each on {@code worker(i)}. */
    private class Fake implements QueuesBench.Jobs {
        final List<String> sent = new CopyOnWriteArrayList<>();
        final IntFunction<String> worker;

        Fake(IntFunction<String> worker) {
            this.worker = worker;
        }

        @Override
        public WorkloadResult burst(BenchOptions.Run run, IntFunction<Control> controls) {
            List<JobRecord> records = new ArrayList<>();
            for (JobRecord job : jobs(6, worker)) {
                sent.add(controls.apply(records.size()).body(JobKind.NOOP));
                records.add(job);
            }
            return WorkloadResult.of(run, Fixtures.submission(6), records, "");
        }

        @Override
        public void warmUp(String label, int count, int concurrency, IntFunction<Control> controls) {
            sent.add(label + ": " + count + " to " + controls.apply(0).queue() + ", " + controls.apply(1).queue()
                    + ", " + concurrency + " in flight");
        }

        @Override
        public Map<String, Long> runsByWorker(List<UUID> jobs) {
            return rows(jobs);
        }

        @Override
        public Set<String> sampled() {
            return Set.of("api-service", "scheduler-service", "worker-1");
        }
    }

    @Test
    void onAPlatformWithBothPoolsItSendsTheJobsAndJudgesTheirRuns() throws IOException {
        Fake jobs = new Fake(i -> i % 2 == 0 ? "worker-1" : "worker-bench");
        // a worker of a queue the jobs do not go to: neither judged nor named among the workers not sampled
        String withOther = BOTH.replace("]}]}", "]},{\"name\":\"images\",\"workers\":[{\"id\":\"resizer\","
                + "\"types\":[\"image.resize\"]}]}]}");
        WorkloadResult result = bench(jobs, 200, withOther).run(new BenchOptions.Run(Workload.QUEUES, 64, "queues"));
        assertThat(api.requests).containsExactly("GET /api/queues ", "GET /api/queues ");
        assertThat(jobs.sent).hasSize(7);
        // the pool is warmed by jobs sent as the measured ones, as the bench's warm-up warmed the standard worker
        assertThat(jobs.sent.get(0)).isEqualTo("queues warm-up: 8000 to default, bench, 64 in flight");
        assertThat(jobs.sent.get(1)).endsWith(",\"queue\":\"default\"}");
        assertThat(jobs.sent.get(2)).endsWith(",\"queue\":\"bench\"}");
        assertThat(result.available()).isTrue();
        assertThat(result.queues().runs()).isEqualTo(6);
        assertThat(result.correctness().summary()).isEqualTo("12/12 as expected, 0 lost, 0 duplicated, 0 unexpected");
        assertThat(result.note()).startsWith("6 no-op jobs, 64 in flight, sent to queue default and queue bench by "
                + "turns, after 8000 unreported ones sent so;").contains("(default: worker-1; bench: "
                + "worker-bench)");
        // the pool is not in platform.properties: its CPU is missing from CPU per job, and the note says so
        assertThat(result.note()).endsWith("workers worker-bench are not among the instances in platform.properties, "
                + "so their CPU and RSS are not sampled: CPU per job and its ceiling leave them out");
    }

    @Test
    void thePoolIsWarmedAsThePlatformWasUnlessAColdPlatformIsAskedFor() {
        assertThat(QueuesBench.warmUp(BenchOptions.AUTO_WARMUP)).isEqualTo(QueuesBench.WARM_UP_JOBS)
                .isEqualTo(8_000);
        assertThat(QueuesBench.warmUp(0)).isZero();
        assertThat(QueuesBench.warmUp(1_500)).isEqualTo(1_500);
        assertThat(BenchOptions.parse(List.of("queues", "--warmup", "0"), CWD).warmup()).isZero();
    }

    @Test
    void aWorkerThatJoinedAQueueDuringTheRunIsAmongItsWorkers() throws IOException {
        // a second pool worker only the read after the jobs lists
        String after = BOTH.replace("[{\"id\":\"worker-bench\"",
                "[{\"id\":\"worker-bench-2\",\"types\":[\"SIMULATION\"]},{\"id\":\"worker-bench\"");
        Fake jobs = new Fake(i -> i % 2 == 0 ? "worker-1" : i == 3 ? "worker-bench-2" : "worker-bench");
        WorkloadResult result = bench(jobs, 200, BOTH, after).run(new BenchOptions.Run(Workload.QUEUES, 64, "queues"));
        assertThat(result.queues().queue("bench").workers()).containsExactly("worker-bench", "worker-bench-2");
        assertThat(result.queues().outside()).isZero();
        assertThat(result.correctness().ok()).isTrue();
    }

    @Test
    void runsOutsideTheirPoolFailTheRun() throws IOException {
        Fake jobs = new Fake(i -> "worker-1");
        WorkloadResult result = bench(jobs, 200, BOTH).run(new BenchOptions.Run(Workload.QUEUES, 64, "queues"));
        assertThat(result.queues().queue("bench").outside()).isEqualTo(3);
        assertThat(result.correctness().ok()).isFalse();
        assertThat(console.toString()).contains("queues: 3 runs by a worker outside their queue's pool");
    }

    @Test
    void withoutThePoolTheWorkloadIsUnavailableAndSendsNothing() throws IOException {
        Fake jobs = new Fake(i -> "worker-1");
        StubApi.assertUnavailable(bench(jobs, 200, DEFAULT_ONLY).run(new BenchOptions.Run(Workload.QUEUES, 64,
                "queues"))).contains("queue bench (no live worker)").endsWith("`./jobweaver up --pool bench`, which "
                + "runs a worker pool serving only queue bench beside the standard worker, which serves default");
        assertThat(api.requests).containsExactly("GET /api/queues ");
        assertThat(jobs.sent).isEmpty();
    }

    @Test
    void anApiWithoutQueuesOrWithAnUnreadableAnswerMakesTheWorkloadUnavailable() throws IOException {
        Fake jobs = new Fake(i -> "worker-1");
        StubApi.assertUnavailable(bench(jobs, 404, "{\"errorCode\":\"X\"}").run(new BenchOptions.Run(Workload.QUEUES,
                64, "queues"))).isEqualTo("the API answers 404 to GET /api/queues ({\"errorCode\":\"X\"}); the "
                + "platform does not support queues");
        api.close();
        StubApi.assertUnavailable(bench(jobs, 200, "[]").run(new BenchOptions.Run(Workload.QUEUES, 64, "queues")))
                .isEqualTo("GET /api/queues was answered 200 without a list of named queues: []");
        api.close();
        StubApi.assertUnavailable(bench(jobs, 403, "{\"errorCode\":\"API.FORBIDDEN\"}").run(new BenchOptions.Run(
                Workload.QUEUES, 64, "queues"))).isEqualTo("GET /api/queues was answered 403 "
                + "{\"errorCode\":\"API.FORBIDDEN\"}, not 200");
        assertThat(jobs.sent).isEmpty();
    }
}
