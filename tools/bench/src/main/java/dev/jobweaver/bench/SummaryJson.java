package dev.jobweaver.bench;

import static dev.jobweaver.bench.RawFiles.putNumber;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** {@code summary.json}: options, platform, every workload's figures, resources and targets (no per-job rows). */
public final class SummaryJson {

    /**
     * The shape of the summary, its {@code formatVersion} field: a reader of one version reads every summary of it.
     * Fields may be added within a version; a field renamed, moved or given another meaning takes the next one.
     */
    public static final int FORMAT_VERSION = 1;

    private SummaryJson() {
    }

    /** The summary of {@code run}. */
    public static ObjectNode of(ObjectMapper json, BenchRun run) {
        ObjectNode root = json.createObjectNode();
        root.put("formatVersion", FORMAT_VERSION);
        root.put("startedAt", run.startedAt().toString());
        ObjectNode options = root.putObject("options");
        ArrayNode selected = options.putArray("workloads");
        run.options().workloads().forEach(w -> selected.add(w.cliName()));
        options.put("jobs", run.options().jobs());
        options.put("concurrency", run.options().concurrency());
        ArrayNode concurrencies = options.putArray("concurrencies");
        run.options().concurrencies().forEach(concurrencies::add);
        putNumber(options, "rate", run.options().rate());
        options.put("durationMs", run.options().duration().toMillis());
        putNumber(options, "baseline", run.options().baseline());
        if (run.options().warmup() == BenchOptions.AUTO_WARMUP) {
            options.put("warmup", "auto");
        } else {
            options.put("warmup", run.options().warmup());
        }
        options.put("settleMs", run.options().settle().toMillis());
        options.put("timeoutMs", run.options().timeout().toMillis());
        options.put("delayedJobs", run.options().delayedJobs());
        options.put("delayedOverMs", run.options().delayedOver().toMillis());
        options.put("delayMinMs", run.options().minDelay().toMillis());
        options.put("delayMaxMs", run.options().maxDelay().toMillis());
        options.put("idleRows", run.options().idleRows());
        options.put("idleWindowMs", run.options().idleWindow().toMillis());
        options.put("cancelJobs", run.options().cancelJobs());
        options.put("notifyJobs", run.options().notifyJobs());
        options.put("schedules", run.options().schedules());
        options.put("scheduleWindowMs", run.options().scheduleWindow().toMillis());
        options.put("workflowRuns", run.options().workflowRuns());
        options.put("diamondRuns", run.options().diamondRuns());
        options.put("limitsBurst", run.options().limitsBurst());
        options.put("limitsBinding", run.options().limitsBinding());
        options.put("limitsJobs", run.options().limitsJobs());
        ObjectNode machine = root.putObject("machine");
        machine.put("cpuModel", run.machine().cpuModel());
        machine.put("cpus", run.machine().cpus());
        putNumber(machine, "memoryLatencyNs", run.machine().memoryLatencyNs());
        ObjectNode warmUp = root.putObject("warmUp");
        warmUp.put("jobs", run.warmUp().totalJobs());
        warmUp.put("adaptive", run.warmUp().adaptive());
        warmUp.put("settled", run.warmUp().settled());
        ArrayNode rounds = warmUp.putArray("roundJitCpuSeconds");
        run.warmUp().roundJitSeconds().forEach(s -> {
            if (Double.isNaN(s)) {
                rounds.addNull();
            } else {
                rounds.add(s);
            }
        });
        ObjectNode platform = root.putObject("platform");
        platform.put("apiUrl", run.platform().apiUrl());
        platform.put("postgresPort", run.platform().postgresPort());
        platform.put("runtime", run.platform().runtime());
        ArrayNode instances = platform.putArray("instances");
        for (PlatformState.Instance i : run.platform().instances()) {
            ObjectNode o = instances.addObject();
            o.put("name", i.name());
            o.put("url", i.url());
            o.put("pid", i.pid());
            if (i.readyMs() >= 0) {
                o.put("readyMs", i.readyMs());
            } else {
                o.putNull("readyMs");
            }
            Double rss = run.rssAtStartMb().get(i.name());
            putNumber(o, "rssAtStartMb", rss == null ? Double.NaN : rss);
        }
        ArrayNode workloads = root.putArray("workloads");
        for (WorkloadResult r : run.results()) {
            ObjectNode w = workloads.addObject();
            w.put("workload", r.workload().cliName());
            w.put("label", r.label());
            if (r.concurrency() > 0) {
                w.put("concurrency", r.concurrency());
            } else {
                w.putNull("concurrency");
            }
            w.put("available", r.available());
            w.put("note", r.note());
            if (!r.available()) {
                continue;
            }
            if (r.idle() != null) {
                idle(w.putObject("idleCpu"), r.idle());
                workloadResources(w, run, r);
                continue;
            }
            if (r.schedules() != null) {
                schedules(w.putObject("schedules"), r.schedules());
                correctness(w.putObject("correctness"), r.correctness());
                workloadResources(w, run, r);
                continue;
            }
            if (r.workflows() != null) {
                workflows(w.putObject("workflow"), r.workflows());
                correctness(w.putObject("correctness"), r.correctness());
                workloadResources(w, run, r);
                continue;
            }
            Submission s = r.submission();
            ObjectNode sub = w.putObject("submission");
            sub.put("offered", s.offered());
            sub.put("accepted", s.accepted());
            sub.put("rejected", s.rejected());
            sub.put("firstRejection", s.firstRejection());
            sub.put("startedAt", s.startedAt() == null ? null : s.startedAt().toString());
            putNumber(sub, "sendSeconds", s.sendSeconds());
            putNumber(sub, "maxSendLagMs", s.maxSendLagMs());
            putNumber(w, "throughputJobsPerSecond", r.throughput());
            putNumber(w, "visibleThroughputJobsPerSecond", r.visibleThroughput());
            putNumber(w, "noopThroughputJobsPerSecond", r.noopThroughput());
            percentiles(w.putObject("acceptMs"), r.accept());
            percentiles(w.putObject("submitToStartMs"), r.toStart());
            percentiles(w.putObject("submitToCompletedMs"), r.toFinish());
            percentiles(w.putObject("finishToVisibleMs"), r.finishToVisible());
            ArrayNode stages = w.putArray("stagesMs");
            for (Stages.Stage stage : r.stages()) {
                ObjectNode o = stages.addObject();
                o.put("stage", stage.name());
                percentiles(o, stage.millis());
            }
            correctness(w.putObject("correctness"), r.correctness());
            ArrayNode perSecond = w.putArray("completionsPerSecond");
            for (int n : r.completionsPerSecond()) {
                perSecond.add(n);
            }
            workloadResources(w, run, r);
            cpuPerJob(w.putObject("cpuPerJobMs"), run.cpuPerJob(r));
            if (!r.byPriority().isEmpty()) {
                ArrayNode levels = w.putArray("byPriority");
                for (PriorityLevels.Level level : r.byPriority()) {
                    ObjectNode o = levels.addObject();
                    o.put("priority", level.priority().name());
                    o.put("accepted", level.accepted());
                    o.put("completed", level.completed());
                    o.put("recordedOtherwise", level.recordedOtherwise());
                    percentiles(o.putObject("submitToStartMs"), level.toStart());
                }
            }
            if (r.lateness().measured()) {
                Lateness late = r.lateness();
                ObjectNode o = w.putObject("lateness");
                o.put("delayed", late.delayed());
                o.put("started", late.started());
                percentiles(o.putObject("latenessMs"), late.millis());
                putNumber(o, "earliestMs", late.earliestMs());
                o.put("early", late.early());
                putNumber(o, "earlyToleranceMs", Lateness.EARLY_TOLERANCE_MS);
                o.put("dueFromRunAt", late.dueFromPlatform());
                o.put("dueFromSendTime", late.dueFromClient());
            }
            if (r.cancels().measured()) {
                ArrayNode groups = w.putObject("cancel").putArray("groups");
                for (Cancels.Group g : r.cancels().groups()) {
                    ObjectNode o = groups.addObject();
                    o.put("group", g.kind().label());
                    o.put("jobs", g.jobs());
                    o.put("cancelNotAccepted", g.notAccepted());
                    o.put("notCancelled", g.notCancelled());
                    if (g.ran() >= 0) {
                        o.put("ran", g.ran());
                    }
                    if (g.notInterrupted() >= 0) {
                        o.put("notInterrupted", g.notInterrupted());
                    }
                    percentiles(o.putObject("cancelAnswerMs"), g.answer());
                    percentiles(o.putObject("toSchedulerCancelledMs"), g.toScheduler());
                    percentiles(o.putObject("toVisibleCancelledMs"), g.toVisible());
                    if (g.kind() == Cancels.Kind.RUNNING) {
                        percentiles(o.putObject("toInterruptMs"), g.toInterrupt());
                    }
                }
            }
            if (r.notifications().measured()) {
                notifications(w.putObject("notify"), r.notifications());
            }
            if (r.limits() != null) {
                limits(w.putObject("limits"), r, run.results());
            }
            if (r.mixed() != null) {
                mixed(w.putObject("mixed"), r, run.results(), run.options().baseline());
            }
            if (r.queues() != null) {
                queues(w.putObject("queues"), r, run.results(), run.options().baseline());
            }
            if (r.purge() != null) {
                purge(w.putObject("purge"), r.purge());
            }
            ArrayNode share = w.putArray("replicaShare");
            for (ReplicaShare.Row row : r.replicaShare()) {
                ObjectNode o = share.addObject();
                o.put("replica", row.replica());
                o.put("service", row.service());
                o.put("counted", row.counted());
                putNumber(o, "count", row.count());
                putNumber(o, "share", row.share());
            }
        }
        ConcurrencySweep.json(root.putArray("burstByConcurrency"), ConcurrencySweep.of(run.results()));
        resources(root.putArray("resources"), run.resources());
        ArrayNode targets = root.putArray("targets");
        for (TargetRow t : run.targets()) {
            ObjectNode o = targets.addObject();
            o.put("target", t.target());
            o.put("goal", t.goal());
            o.put("measured", t.measured());
            o.put("verdict", t.verdict());
        }
        return root;
    }

    /** count, p50, p90, p95, p99, max and mean into {@code o}. */
    static void percentiles(ObjectNode o, Percentiles p) {
        o.put("count", p.count());
        putNumber(o, "p50", p.p50());
        putNumber(o, "p90", p.p90());
        putNumber(o, "p95", p.p95());
        putNumber(o, "p99", p.p99());
        putNumber(o, "max", p.max());
        putNumber(o, "mean", p.mean());
    }

    private static void correctness(ObjectNode o, Correctness c) {
        o.put("accepted", c.accepted());
        outcomeCounts(o, c);
        ArrayNode examples = o.putArray("examples");
        c.examples().forEach(examples::add);
    }

    /** How the accepted jobs of {@code c} ended: as expected, lost, duplicated, unexpected. */
    static void outcomeCounts(ObjectNode o, Correctness c) {
        o.put("asExpected", c.asExpected());
        o.put("lost", c.lost());
        o.put("duplicated", c.duplicated());
        o.put("unexpected", c.unexpected());
    }

    private static void notifications(ObjectNode o, Notifications n) {
        o.put("jobs", n.jobs());
        o.put("subscribed", n.subscribed());
        o.put("completed", n.completed());
        o.put("delivered", n.delivered());
        o.put("missing", n.missing());
        o.put("finishedBeforeSubscribed", n.finishedBeforeSubscribed());
        o.put("deliveries", n.deliveries());
        o.put("duplicates", n.duplicates());
        o.put("duplicatesSameWebhookId", n.sameId());
        o.put("badSignatures", n.badSignatures());
        o.put("deliveriesForNoJobOfTheBench", n.strays());
        putNumber(o, "deliveriesPerSecond", n.deliveriesPerSecond());
        percentiles(o.putObject("finishToReceiptMs"), n.finishToReceipt());
        o.put("finishFromBody", n.finishFromBody());
        putNumber(o, "subscriptionsPerSecond", n.subscriptionsPerSecond());
        percentiles(o.putObject("subscribeAnswerMs"), n.subscribeAnswer());
    }

    private static void schedules(ObjectNode o, ScheduleTicks t) {
        o.put("schedules", t.schedules());
        o.put("notCreated", t.notCreated());
        putNumber(o, "createdPerSecond", t.creationPerSecond());
        percentiles(o.putObject("createAnswerMs"), t.createAnswer());
        o.put("intervalMs", t.interval().toMillis());
        o.put("windowFrom", t.from().toString());
        o.put("windowTo", t.to().toString());
        o.put("expectedTicks", t.expectedTicks());
        o.put("ticksWithOneJob", t.asExpected());
        o.put("missing", t.missing());
        o.put("duplicated", t.duplicated());
        o.put("jobsAtNoTick", t.offGrid());
        o.put("firstTickGuessed", t.firstTickGuessed());
        percentiles(o.putObject("tickToStoredMs"), t.tickLag());
        ObjectNode metric = o.putObject("schedulerTickLag");
        metric.put("published", t.metric().published());
        ObjectNode quantiles = metric.putObject("quantilesMs");
        t.metric().quantilesMs().forEach((q, ms) -> putNumber(quantiles, q, ms));
        putNumber(metric, "count", t.metric().count());
        putNumber(metric, "meanMs", t.metric().meanMs());
        putNumber(metric, "maxMs", t.metric().maxMs());
        ObjectNode outcomes = metric.putObject("ticksByOutcome");
        t.metric().ticksByOutcome().forEach((outcome, n) -> putNumber(outcomes, outcome, n));
        ArrayNode processes = o.putArray("processes");
        for (ScheduleTicks.ProcessUse p : t.processes()) {
            ObjectNode row = processes.addObject();
            row.put("process", p.process());
            putNumber(row, "idleCpuPercent", p.idleCpuPercent());
            putNumber(row, "withSchedulesCpuPercent", p.loadedCpuPercent());
            putNumber(row, "idleRssMaxMb", p.idleRssMb());
            putNumber(row, "withSchedulesRssMaxMb", p.loadedRssMb());
        }
        o.put("deletedOrPaused", t.removed());
    }

    private static void workflows(ObjectNode o, WorkflowRuns w) {
        WorkflowRuns.FanOut f = w.fanOut();
        ObjectNode fan = o.putObject("fanOut");
        fan.put("nodes", WorkflowRuns.Shape.FAN_OUT.nodeIds().size());
        fan.put("runs", f.runs());
        fan.put("notAccepted", f.notAccepted());
        fan.put("completed", f.completed());
        fan.put("nodeJobs", w.expectedNodeJobs(WorkflowRuns.Shape.FAN_OUT));
        fan.put("nodeJobsOnce", w.nodeJobsOnce(WorkflowRuns.Shape.FAN_OUT));
        percentiles(fan.putObject("runAnswerMs"), f.answer());
        percentiles(fan.putObject("acceptedToJoinStartMs"), f.acceptedToJoin());
        percentiles(fan.putObject("createdToJoinStartMs"), f.createdToJoin());
        percentiles(fan.putObject("createdToLastBranchStartMs"), f.createdToLastBranchStart());
        percentiles(fan.putObject("lastBranchFinishToJoinStartMs"), f.lastBranchToJoin());
        WorkflowRuns.Diamond d = w.diamond();
        ObjectNode diamond = o.putObject("diamond");
        diamond.put("nodes", WorkflowRuns.Shape.DIAMOND.nodeIds().size());
        diamond.put("runs", d.runs());
        diamond.put("notAccepted", d.notAccepted());
        diamond.put("completed", d.completed());
        diamond.put("concurrency", d.concurrency());
        diamond.put("nodeJobs", w.expectedNodeJobs(WorkflowRuns.Shape.DIAMOND));
        diamond.put("nodeJobsOnce", w.nodeJobsOnce(WorkflowRuns.Shape.DIAMOND));
        putNumber(diamond, "runsPerSecond", d.runsPerSecond());
        putNumber(diamond, "nodeJobsPerSecond", d.jobsPerSecond());
        percentiles(diamond.putObject("runAnswerMs"), d.answer());
        percentiles(diamond.putObject("requestToFinishedMs"), d.requestToEnd());
        percentiles(diamond.putObject("createdToFinishedMs"), d.createdToEnd());
        o.put("workflowsDeleted", w.deleted());
    }

    /**
     * The limits run {@code r}: its tenant and limit beside the plain burst of {@code results} at its concurrency, and
     * its phase under a limit that binds. Its own jobs/s and latencies are the workload's fields, as the burst's.
     */
    private static void limits(ObjectNode o, WorkloadResult r, List<WorkloadResult> results) {
        TenantLimits l = r.limits();
        o.put("tenant", l.tenant());
        o.put("maxRunning", l.freeLimit());
        WorkloadResult burst = FeatureTables.plainBurst(results, r.concurrency());
        if (burst == null) {
            o.putNull("burstJobsPerSecond");
        } else {
            putNumber(o, "burstJobsPerSecond", burst.throughput());
        }
        putNumber(o, "ratioToBurst", FeatureTables.ratioToBurst(results, r));
        ObjectNode binding = o.putObject("binding");
        binding.put("maxRunning", l.bindingLimit());
        binding.put("jobs", l.jobs().size());
        binding.put("notAccepted", l.notAccepted());
        binding.put("completed", l.completed());
        binding.put("sleepMs", l.sleepMs());
        binding.put("maxRunningSeen", l.maxRunning());
        binding.put("startsOverLimit", l.overLimit().size());
        binding.put("exceeded", l.exceeded());
        putNumber(binding, "jobsPerSecond", l.jobsPerSecond());
        putNumber(binding, "idealJobsPerSecond", l.idealPerSecond());
        putNumber(binding, "shareOfIdeal", l.shareOfIdeal());
    }

    /**
     * The mixed run {@code r}: its features' figures beside the plain burst's jobs/s of {@code results} at its
     * concurrency (else {@code baseline}). Its own jobs/s and latencies are the workload's fields, as the burst's.
     */
    private static void mixed(ObjectNode o, WorkloadResult r, List<WorkloadResult> results, double baseline) {
        MixedFeatures m = r.mixed();
        double burst = FeatureTables.burstOrBaseline(results, r.concurrency(), baseline);
        putNumber(o, "burstJobsPerSecond", burst);
        putNumber(o, "ratioToBurst", r.throughput() / burst);
        ObjectNode keyed = o.putObject("idempotency");
        keyed.put("keyed", m.keyed());
        keyed.put("repeatSameJob", m.keyedSameJob());
        keyed.put("repeatSecondJob", m.keyedSecondJob());
        keyed.put("repeatRefused", m.keyedRefused());
        ObjectNode hooks = o.putObject("webhooks");
        hooks.put("labelled", m.labelled());
        hooks.put("filtered", m.filtered());
        hooks.put("once", m.hookedOnce());
        hooks.put("missing", m.hooksMissing());
        hooks.put("repeated", m.hooksRepeated());
        hooks.put("unmatched", m.hooksUnmatched());
        ObjectNode runs = o.putObject("workflow");
        runs.put("runsStarted", m.runsStarted());
        runs.put("runsAccepted", m.runsAccepted());
        runs.put("runsCompleted", m.runsCompleted());
        runs.put("nodesPerRun", m.nodesPerRun());
        runs.put("nodeJobs", m.nodeJobs());
    }

    /**
     * The purge run's seed and, per database, its rows left and how long they took to go; the steady jobs' latency is
     * the workload's {@code toStart}.
     */
    private static void purge(ObjectNode o, PurgeRun p) {
        o.put("tenant", p.tenant());
        o.put("seeded", p.seeded());
        putNumber(o, "seedSeconds", p.seedSeconds());
        o.put("capSeconds", p.cap().toSeconds());
        for (PurgeRun.Database db : List.of(p.api(), p.scheduler())) {
            ObjectNode one = o.putObject(db.name());
            one.put("left", db.left());
            putNumber(one, "goneSeconds", db.seconds());
            putNumber(one, "jobsPerSecond", db.rate(p.seeded()));
        }
        o.put("attemptsLeft", p.attemptsLeft());
        o.put("othersPurged", p.others().purged());
        ArrayNode samples = o.putArray("samples");
        for (PurgeRun.Sample sample : p.samples()) {
            ObjectNode one = samples.addObject();
            putNumber(one, "atSeconds", sample.atSeconds());
            one.put("apiLeft", sample.apiLeft());
            one.put("schedulerLeft", sample.schedulerLeft());
        }
    }

    /**
     * The queues run {@code r}: its jobs/s beside the plain burst's of {@code results} at its concurrency (else
     * {@code baseline}), and per queue, by name, its workers, jobs, rate and execution rows by worker. Its own jobs/s
     * and latencies are the workload's fields, as the burst's.
     */
    private static void queues(ObjectNode o, WorkloadResult r, List<WorkloadResult> results, double baseline) {
        QueueRuns q = r.queues();
        double burst = FeatureTables.burstOrBaseline(results, r.concurrency(), baseline);
        putNumber(o, "burstJobsPerSecond", burst);
        putNumber(o, "ratioToBurst", r.throughput() / burst);
        o.put("runsRead", q.measured());
        o.put("runs", q.runs());
        o.put("runsOutsideTheirPool", q.outside());
        ObjectNode byQueue = o.putObject("byQueue");
        for (QueueRuns.Queue queue : q.queues()) {
            ObjectNode one = byQueue.putObject(queue.name());
            ArrayNode workers = one.putArray("workers");
            queue.workers().forEach(workers::add);
            one.put("jobs", queue.jobs());
            one.put("completed", queue.completed());
            putNumber(one, "jobsPerSecond", queue.jobsPerSecond());
            one.put("runs", queue.runs());
            one.put("runsOutsidePool", queue.outside());
            ObjectNode byWorker = one.putObject("runsByWorker");
            queue.runsByWorker().forEach(byWorker::put);
        }
    }

    private static void idle(ObjectNode o, IdleCpu idle) {
        o.put("rows", idle.rows());
        o.put("dueInMs", idle.dueIn().toMillis());
        putNumber(o, "insertSeconds", idle.insertSeconds());
        o.put("windowMs", idle.window().toMillis());
        o.put("deleted", idle.deleted());
        ArrayNode processes = o.putArray("processes");
        for (IdleCpu.ProcessCpu p : idle.processes()) {
            ObjectNode row = processes.addObject();
            row.put("process", p.process());
            putNumber(row, "withoutRowsCpuMsPerSecond", p.emptyMsPerSecond());
            putNumber(row, "withRowsCpuMsPerSecond", p.loadedMsPerSecond());
        }
    }

    private static void cpuPerJob(ObjectNode o, CpuPerJob cpu) {
        ObjectNode byProcess = o.putObject("byProcess");
        cpu.msByProcess().forEach((process, ms) -> putNumber(byProcess, process, ms));
        putNumber(o, "platform", cpu.platformMs());
        putNumber(o, "bench", cpu.benchMs());
        putNumber(o, "ceilingJobsPerSecond", cpu.ceilingJobsPerSecond());
    }

    /** {@code r}'s processes' RSS and CPU ({@code resources}) and, when read, the machine's load ({@code machine}). */
    private static void workloadResources(ObjectNode w, BenchRun run, WorkloadResult r) {
        resources(w.putArray("resources"), run.resourcesByWorkload().getOrDefault(r.label(), List.of()));
        MachineCpu.Load load = run.machineByWorkload().get(r.label());
        if (load != null) {
            ObjectNode machine = w.putObject("machine");
            putNumber(machine, "coresBusyPercent", load.busyPercent());
            putNumber(machine, "stolenPercent", load.stolenPercent());
        }
    }

    private static void resources(ArrayNode array, List<ResourceSummary> summaries) {
        for (ResourceSummary s : summaries) {
            ObjectNode o = array.addObject();
            o.put("process", s.process());
            o.put("samples", s.samples());
            putNumber(o, "maxRssMb", s.maxRssMb());
            putNumber(o, "meanRssMb", s.meanRssMb());
            putNumber(o, "meanCpuPercent", s.meanCpuPercent());
            putNumber(o, "maxCpuPercent", s.maxCpuPercent());
            putNumber(o, "jitCpuSeconds", s.jitCpuSeconds());
            putNumber(o, "gcCpuSeconds", s.gcCpuSeconds());
        }
    }
}
