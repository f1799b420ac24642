package dev.jobweaver.local.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Reads RSS and CPU of the platform's processes from {@code /proc} every second while the bench runs.
 *
 * <p>For a process counted with its descendants (PostgreSQL), CPU is the sum over the tree. RSS is the sum of each
 * process's private part ({@code VmRSS - RssShmem - RssFile}) plus the largest {@code RssShmem} and {@code RssFile}
 * once, since every backend maps the same shared buffers and libraries; for a single process that is its VmRSS.
 */
public final class ResourceSampler implements AutoCloseable {

    /** Sampling period, milliseconds. */
    static final long PERIOD_MS = 1_000;

    private final List<SampledProcess> processes;
    private final LongFunction<List<Long>> descendants;
    private final Path proc;
    private final List<ResourceSample> samples = new ArrayList<>();
    private final Map<String, long[]> previous = new HashMap<>();
    private Thread thread;
    private volatile boolean stopped;

    /** A sampler of {@code processes} under {@code /proc}, children found with {@link ProcessHandle}. */
    public ResourceSampler(List<SampledProcess> processes) {
        this(processes, Path.of("/proc"), pid -> ProcessHandle.of(pid).stream()
                .flatMap(ProcessHandle::descendants).map(ProcessHandle::pid).toList());
    }

    /** A sampler reading {@code proc} and finding children with {@code descendants} (tests fake both). */
    ResourceSampler(List<SampledProcess> processes, Path proc, LongFunction<List<Long>> descendants) {
        this.processes = List.copyOf(processes);
        this.proc = proc;
        this.descendants = descendants;
    }

    /** Starts sampling every second on a daemon thread. */
    public ResourceSampler start() {
        thread = Thread.ofPlatform().daemon().name("bench-sampler").start(this::loop);
        return this;
    }

    /** Every sample so far. */
    public synchronized List<ResourceSample> samples() {
        return List.copyOf(samples);
    }

    private void loop() {
        while (!stopped) {
            sampleOnce();
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Takes one reading of every process still alive. */
    synchronized void sampleOnce() {
        long now = System.currentTimeMillis();
        long nanos = System.nanoTime();
        for (SampledProcess p : processes) {
            if (p.pid() <= 0) {
                continue;
            }
            List<Long> pids = new ArrayList<>();
            pids.add(p.pid());
            if (p.withDescendants()) {
                pids.addAll(descendants.apply(p.pid()));
            }
            long privateKb = 0;
            long sharedKb = 0;
            long fileKb = 0;
            long ticks = 0;
            boolean root = true;
            boolean alive = false;
            for (long pid : pids) {
                try {
                    Path dir = proc.resolve(Long.toString(pid));
                    String status = Files.readString(dir.resolve("status"));
                    long rss = ProcStats.rssKb(status);
                    long stat = ProcStats.cpuTicks(Files.readString(dir.resolve("stat")));
                    if (rss >= 0) {
                        long shmem = ProcStats.rssShmemKb(status);
                        long file = ProcStats.rssFileKb(status);
                        privateKb += Math.max(0, rss - shmem - file);
                        sharedKb = Math.max(sharedKb, shmem);
                        fileKb = Math.max(fileKb, file);
                    }
                    ticks += stat;
                    alive |= root && rss >= 0;
                } catch (IOException | RuntimeException e) {
                    // gone between listing and reading (or restarting): it does not count this second
                }
                root = false;
            }
            if (!alive) {
                previous.remove(p.name());
                continue;
            }
            long[] before = previous.put(p.name(), new long[] {ticks, nanos});
            double cpu = before == null ? Double.NaN
                    : ProcStats.cpuPercent(before[0], Math.max(before[0], ticks), nanos - before[1]);
            samples.add(new ResourceSample(now, p.name(), privateKb + sharedKb + fileKb, cpu));
        }
    }

    /** Stops sampling. */
    @Override
    public void close() {
        stopped = true;
        if (thread == null) {
            return;
        }
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
