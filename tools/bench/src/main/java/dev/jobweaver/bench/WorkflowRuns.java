package dev.jobweaver.bench;

import dev.jobweaver.common.workflow.WorkflowGraph;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What the workflow workload measured: runs of a fan-out workflow one after another (how soon after a run's start its
 * fan-in node starts, and what the fan-in itself costs), and many runs of a 5-node diamond at once (runs per second,
 * and each run's start to end); whether every run COMPLETED with every node's job executed exactly once.
 *
 * @param fanOut the fan-out runs' figures
 * @param diamond the diamond runs' figures
 * @param deleted the bench's workflows deleted at the end (answered 204 or 404)
 * @param runs every accepted run with its nodes, for the raw files and the correctness
 */
public record WorkflowRuns(FanOut fanOut, Diamond diamond, int deleted, List<Run> runs) {

    /** Branches of the fan-out: with {@code start} and {@code join}, the most nodes a workflow may have. */
    public static final int FAN_OUT_BRANCHES = WorkflowGraph.MAX_NODES - 2;

    /** The name every workflow of the bench starts with, so that one left behind is recognisable. */
    static final String NAME_PREFIX = "jobweaver-bench-";

    /** Node ids of the fan-out's root and fan-in node. */
    static final String START = "start";
    static final String JOIN = "join";

    /** The statuses of a run that has ended. */
    static final List<String> RUN_ENDED = List.of("COMPLETED", "FAILED", "CANCELLED");

    public WorkflowRuns {
        runs = List.copyOf(runs);
    }

    /** The two workflows the workload runs. */
    public enum Shape {
        /** {@code start}, {@link #FAN_OUT_BRANCHES} parallel nodes depending on it, {@code join} depending on all. */
        FAN_OUT("fan-out"),
        /** {@code a}; {@code b}, {@code c}, {@code d} depending on it; {@code e} depending on the three. */
        DIAMOND("diamond");

        private final String label;

        Shape(String label) {
            this.label = label;
        }

        /** Its name in reports and files. */
        public String label() {
            return label;
        }

        /** Its node ids, in the order of its body. */
        public List<String> nodeIds() {
            return this == FAN_OUT ? fanOutIds(FAN_OUT_BRANCHES) : List.of("a", "b", "c", "d", "e");
        }

        /** The ids of the nodes the last one depends on: the fan-out's branches, the diamond's middle. */
        List<String> branches() {
            List<String> ids = nodeIds();
            return ids.subList(1, ids.size() - 1);
        }

        /** The {@code POST /api/workflows} body of a workflow of this shape named {@code name}. */
        public String body(String name) {
            return this == FAN_OUT ? fanOutBody(name, FAN_OUT_BRANCHES) : WorkflowRuns.body(name, nodeIds());
        }
    }

    /** {@code start}, {@code b01}..{@code bNN}, {@code join}. */
    static List<String> fanOutIds(int branches) {
        List<String> ids = new ArrayList<>();
        ids.add(START);
        IntStream.rangeClosed(1, branches).forEach(i -> ids.add(String.format(java.util.Locale.ROOT, "b%02d", i)));
        ids.add(JOIN);
        return ids;
    }

    /**
     * A fan-out of {@code branches} no-op nodes between {@code start} and {@code join}; refused when it has more nodes
     * than a workflow may ({@link WorkflowGraph#MAX_NODES}), which the API would answer 400.
     */
    static String fanOutBody(String name, int branches) {
        if (branches + 2 > WorkflowGraph.MAX_NODES) {
            throw new IllegalArgumentException("a fan-out of " + branches + " branches has " + (branches + 2)
                    + " nodes; a workflow may have at most " + WorkflowGraph.MAX_NODES);
        }
        return body(name, fanOutIds(branches));
    }

    /**
     * The body of a workflow whose first node is the root, the last depends on every middle one, and every middle one
     * on the root: the fan-out and the diamond alike. No {@code maxConcurrency}: a workflow's limit holds over all its
     * runs, and the diamond's runs are measured many at once.
     */
    private static String body(String name, List<String> ids) {
        String root = ids.getFirst();
        List<String> middle = ids.subList(1, ids.size() - 1);
        StringBuilder json = new StringBuilder("{\"name\":\"").append(name).append("\",\"nodes\":[");
        json.append(node(root, List.of()));
        middle.forEach(id -> json.append(',').append(node(id, List.of(root))));
        json.append(',').append(node(ids.getLast(), middle));
        return json.append("],\"onFailure\":\"FAIL_FAST\"}").toString();
    }

    private static String node(String id, List<String> dependsOn) {
        String node = "{\"id\":\"" + id + "\",\"job\":" + JobKind.NOOP.body();
        if (!dependsOn.isEmpty()) {
            node += ",\"dependsOn\":[" + dependsOn.stream().map(d -> "\"" + d + "\"")
                    .collect(Collectors.joining(",")) + "]";
        }
        return node + "}";
    }

    /** The body of {@code POST /api/workflows/{id}/runs}. */
    static final String RUN_BODY = "{\"input\":{}}";

    /**
     * One node of a run.
     *
     * @param id its id in the workflow
     * @param status its status in the run's last reading; null when the run did not list it
     * @param job its job as the platform recorded it ({@code jobId} from the run, else the id the node's job must
     *            have); its {@code status} is null when the API has no such job
     */
    public record Node(String id, String status, JobRecord job) {
    }

    /**
     * One accepted run.
     *
     * @param shape which workflow
     * @param runId its id
     * @param sentAt when the bench sent {@code POST /api/workflows/{id}/runs}
     * @param acceptedAt when its 202 reached the bench
     * @param answerMs from sending to the whole 202
     * @param status its status in the last reading of {@code GET /api/workflow-runs/{runId}}; null without one
     * @param createdAt the run's {@code createdAt}; null without one
     * @param finishedAt the run's {@code finishedAt}; null until it ended
     * @param nodes every node of its workflow, in the workflow's order
     */
    public record Run(Shape shape, UUID runId, Instant sentAt, Instant acceptedAt, double answerMs, String status,
                      Instant createdAt, Instant finishedAt, List<Node> nodes) {

        public Run {
            nodes = List.copyOf(nodes);
        }

        /** Its node {@code id}, or null. */
        Node node(String id) {
            return nodes.stream().filter(n -> n.id().equals(id)).findFirst().orElse(null);
        }

        /** When its last node's job started on the worker; null when it did not. */
        Instant joinStartedAt() {
            Node last = node(shape.nodeIds().getLast());
            return last == null || last.job() == null ? null : last.job().startedAt();
        }

        /** The latest of {@code time} over the middle nodes' jobs; null when one of them has none. */
        private Instant lastOfBranches(java.util.function.Function<JobRecord, Instant> time) {
            Instant last = null;
            for (String id : shape.branches()) {
                Node n = node(id);
                Instant t = n == null || n.job() == null ? null : time.apply(n.job());
                if (t == null) {
                    return null;
                }
                last = last == null || t.isAfter(last) ? t : last;
            }
            return last;
        }

        /** When the last branch's job finished ({@code jobs.finished_at}); null when one did not. */
        Instant lastBranchFinishedAt() {
            return lastOfBranches(JobRecord::finishedAt);
        }

        /** When the last branch's job started on the worker; null when one did not. */
        Instant lastBranchStartedAt() {
            return lastOfBranches(JobRecord::startedAt);
        }

        /** Whether it COMPLETED. */
        boolean completed() {
            return "COMPLETED".equals(status);
        }
    }

    /**
     * The fan-out's figures, over its runs that COMPLETED.
     *
     * @param runs runs sent
     * @param notAccepted runs not answered 202 with a {@code runId}
     * @param completed runs that COMPLETED
     * @param answer milliseconds {@code POST .../runs} took to answer 202
     * @param acceptedToJoin from the 202's arrival to the join's job start on the worker
     * @param createdToJoin from the run's {@code createdAt} to the join's job start
     * @param createdToLastBranchStart from the run's {@code createdAt} to the start of the last branch's job: the
     *                                 fan-out's spread
     * @param lastBranchToJoin from the last branch's finish to the join's job start: the fan-in's own cost
     */
    public record FanOut(int runs, int notAccepted, int completed, Percentiles answer, Percentiles acceptedToJoin,
                         Percentiles createdToJoin, Percentiles createdToLastBranchStart,
                         Percentiles lastBranchToJoin) {
    }

    /**
     * The diamond's figures.
     *
     * @param runs runs sent
     * @param notAccepted runs not answered 202 with a {@code runId}
     * @param completed runs that COMPLETED
     * @param concurrency run requests in flight at most
     * @param answer milliseconds {@code POST .../runs} took to answer 202
     * @param runsPerSecond completed runs / (the last completed run's {@code finishedAt} - the first request)
     * @param jobsPerSecond the node jobs this means: {@code runsPerSecond} times the diamond's 5 nodes
     * @param requestToEnd from each completed run's request to its {@code finishedAt}
     * @param createdToEnd from each completed run's {@code createdAt} to its {@code finishedAt}
     */
    public record Diamond(int runs, int notAccepted, int completed, int concurrency, Percentiles answer,
                          double runsPerSecond, double jobsPerSecond, Percentiles requestToEnd,
                          Percentiles createdToEnd) {
    }

    /**
     * The figures of {@code runs} (both shapes); {@code fanOutSent} and {@code diamondSent} runs were requested, those
     * not in {@code runs} not accepted.
     */
    public static WorkflowRuns of(List<Run> runs, int fanOutSent, int diamondSent, int concurrency, int deleted) {
        List<Run> fan = runs.stream().filter(r -> r.shape() == Shape.FAN_OUT).toList();
        List<Run> fanDone = fan.stream().filter(Run::completed).toList();
        FanOut fanOut = new FanOut(fanOutSent, fanOutSent - fan.size(), fanDone.size(), answers(fan),
                between(fanDone, Run::acceptedAt, Run::joinStartedAt),
                between(fanDone, Run::createdAt, Run::joinStartedAt),
                between(fanDone, Run::createdAt, Run::lastBranchStartedAt),
                between(fanDone, Run::lastBranchFinishedAt, Run::joinStartedAt));
        List<Run> dia = runs.stream().filter(r -> r.shape() == Shape.DIAMOND).toList();
        List<Run> diaDone = dia.stream().filter(Run::completed).toList();
        Instant first = dia.stream().map(Run::sentAt).filter(Objects::nonNull).min(Comparator.naturalOrder())
                .orElse(null);
        Instant last = diaDone.stream().map(Run::finishedAt).filter(Objects::nonNull).max(Comparator.naturalOrder())
                .orElse(null);
        double seconds = JobRecord.millisBetween(first, last) / 1000.0;
        double perSecond = diaDone.isEmpty() || !(seconds > 0) ? Double.NaN : diaDone.size() / seconds;
        Diamond diamond = new Diamond(diamondSent, diamondSent - dia.size(), diaDone.size(), concurrency,
                answers(dia), perSecond, perSecond * Shape.DIAMOND.nodeIds().size(),
                between(diaDone, Run::sentAt, Run::finishedAt), between(diaDone, Run::createdAt, Run::finishedAt));
        return new WorkflowRuns(fanOut, diamond, deleted, runs);
    }

    private static Percentiles answers(List<Run> runs) {
        return Percentiles.of(runs.stream().mapToDouble(Run::answerMs).filter(v -> !Double.isNaN(v)).toArray());
    }

    private static Percentiles between(List<Run> runs, java.util.function.Function<Run, Instant> from,
                                       java.util.function.Function<Run, Instant> to) {
        return Percentiles.of(runs.stream().mapToDouble(r -> JobRecord.millisBetween(from.apply(r), to.apply(r)))
                .filter(v -> !Double.isNaN(v)).toArray());
    }

    /** Whether the workload ran (some run was requested). */
    public boolean measured() {
        return fanOut.runs() + diamond.runs() > 0;
    }

    /** Node jobs the accepted runs of {@code shape} must have made: each run's nodes. */
    public int expectedNodeJobs(Shape shape) {
        return runs.stream().filter(r -> r.shape() == shape).mapToInt(r -> shape.nodeIds().size()).sum();
    }

    /** Node jobs of the runs of {@code shape} COMPLETED after exactly one attempt and one execution. */
    public int nodeJobsOnce(Shape shape) {
        return (int) runs.stream().filter(r -> r.shape() == shape).flatMap(r -> r.nodes().stream())
                .filter(n -> once(n.job())).count();
    }

    private static boolean once(JobRecord job) {
        return job != null && job.completed() && job.attempts() == 1 && (job.executions() < 0 || job.executions() == 1);
    }

    /**
     * The runs judged: as expected when the run COMPLETED and every node's job COMPLETED with one attempt and one
     * execution row; lost when the run had not ended when the bench stopped waiting; duplicated when a node's job was
     * executed more than once; unexpected otherwise (the run ended otherwise, or a node's job is missing or ended
     * otherwise). Execution rows that could not be read (-1) are not judged.
     */
    public Correctness correctness() {
        Correctness.Tally tally = new Correctness.Tally();
        for (Run run : runs) {
            String which = run.runId() + " (" + run.shape().label() + " run): ";
            Node twice = run.nodes().stream().filter(n -> n.job() != null && n.job().executions() > 1).findFirst()
                    .orElse(null);
            Node wrong = run.nodes().stream().filter(n -> !once(n.job())).findFirst().orElse(null);
            if (run.status() == null || !RUN_ENDED.contains(run.status())) {
                tally.lost(which + (run.status() == null ? "never read" : "still " + run.status()));
            } else if (twice != null) {
                tally.duplicated(which + "node " + twice.id() + "'s job " + twice.job().jobId() + " executed "
                        + twice.job().executions() + " times");
            } else if (!run.completed()) {
                tally.unexpected(which + "ended " + run.status()
                        + (wrong == null ? "" : "; node " + wrong.id() + ": " + state(wrong)));
            } else if (wrong != null) {
                tally.unexpected(which + "COMPLETED, but node " + wrong.id() + ": " + state(wrong));
            } else {
                tally.asExpected();
            }
        }
        return tally.of(runs.size());
    }

    private static String state(Node node) {
        JobRecord job = node.job();
        String status = node.status() == null ? "not listed" : node.status();
        if (job == null || job.status() == null) {
            return status + ", no job in jobweaver_api.jobs";
        }
        return status + ", job " + job.jobId() + " " + job.status() + " with attempts " + job.attempts() + " and "
                + job.executions() + " execution rows";
    }

    /** Every node job of every run, for the raw job files. */
    public List<JobRecord> nodeJobs() {
        return runs.stream().flatMap(r -> r.nodes().stream()).map(Node::job).filter(Objects::nonNull).toList();
    }

    /** The CSV header of {@link #runsCsv}. */
    static final String RUNS_HEADER = "runId,shape,sentAt,acceptedAt,answerMs,status,createdAt,finishedAt,"
            + "lastBranchStartedAt,lastBranchFinishedAt,joinStartedAt,nodeJobsOnce,nodes";

    /** One line per run: its timestamps, the last node's start and its branches' last start and finish. */
    public String runsCsv() {
        StringBuilder out = new StringBuilder(RUNS_HEADER).append('\n');
        for (Run r : runs) {
            out.append(r.runId()).append(',').append(r.shape().label()).append(',').append(iso(r.sentAt()))
                    .append(',').append(iso(r.acceptedAt())).append(',').append(number(r.answerMs())).append(',')
                    .append(RawFiles.csv(r.status())).append(',').append(iso(r.createdAt())).append(',')
                    .append(iso(r.finishedAt())).append(',').append(iso(r.lastBranchStartedAt())).append(',')
                    .append(iso(r.lastBranchFinishedAt())).append(',').append(iso(r.joinStartedAt())).append(',')
                    .append(r.nodes().stream().filter(n -> once(n.job())).count()).append(',')
                    .append(r.nodes().size()).append('\n');
        }
        return out.toString();
    }

    private static String iso(Instant instant) {
        return instant == null ? "" : instant.toString();
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : String.format(java.util.Locale.ROOT, "%.3f", value);
    }
}
