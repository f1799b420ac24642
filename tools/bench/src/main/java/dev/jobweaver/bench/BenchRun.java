package dev.jobweaver.bench;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A whole benchmark run: what was asked, what was measured, against which platform.
 *
 * @param startedAt when the run began
 * @param options the options
 * @param platform the platform it ran against
 * @param results one result per selected workload, in run order
 * @param targets the performance targets beside the figures
 * @param resources RSS and CPU per process over the whole run
 * @param resourcesByWorkload RSS and CPU per process during each workload, by its label
 * @param samples every resource reading
 * @param machine how fast the machine was when the run began
 * @param warmUp the unreported jobs run first, and how warm they left the platform
 * @param rssAtStartMb each service instance's RSS in MiB when the run began, before its warm-up, by instance name:
 *                     the idle RSS of a platform that ran nothing since it started; an instance whose RSS could not
 *                     be read is absent
 * @param machineByWorkload how busy the machine's cores were during each workload and how much of their time was
 *                          stolen, by its label; a workload without two readings of the machine is absent
 */
public record BenchRun(Instant startedAt, BenchOptions options, PlatformState platform, List<WorkloadResult> results,
                       List<TargetRow> targets, List<ResourceSummary> resources,
                       Map<String, List<ResourceSummary>> resourcesByWorkload, List<ResourceSample> samples,
                       Machine machine, WarmUp warmUp, Map<String, Double> rssAtStartMb,
                       Map<String, MachineCpu.Load> machineByWorkload) {

    public BenchRun {
        rssAtStartMb = Map.copyOf(rssAtStartMb);
        machineByWorkload = Map.copyOf(machineByWorkload);
    }

    /** A run without readings of the machine's load. */
    public BenchRun(Instant startedAt, BenchOptions options, PlatformState platform, List<WorkloadResult> results,
                    List<TargetRow> targets, List<ResourceSummary> resources,
                    Map<String, List<ResourceSummary>> resourcesByWorkload, List<ResourceSample> samples,
                    Machine machine, WarmUp warmUp, Map<String, Double> rssAtStartMb) {
        this(startedAt, options, platform, results, targets, resources, resourcesByWorkload, samples, machine, warmUp,
                rssAtStartMb, Map.of());
    }

    /** A run whose instances' RSS at its start is unknown. */
    public BenchRun(Instant startedAt, BenchOptions options, PlatformState platform, List<WorkloadResult> results,
                    List<TargetRow> targets, List<ResourceSummary> resources,
                    Map<String, List<ResourceSummary>> resourcesByWorkload, List<ResourceSample> samples,
                    Machine machine, WarmUp warmUp) {
        this(startedAt, options, platform, results, targets, resources, resourcesByWorkload, samples, machine, warmUp,
                Map.of(), Map.of());
    }

    /** What each completed job of {@code result} cost in CPU, over its throughput window, on this machine. */
    public CpuPerJob cpuPerJob(WorkloadResult result) {
        return CpuPerJob.of(samples, result, machine.cpus());
    }
}
