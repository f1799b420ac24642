package dev.jobweaver.local.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads RSS and CPU of the platform's processes from {@code /proc} every second while the bench runs. */
public final class ResourceSampler implements AutoCloseable {

    /** Sampling period, milliseconds. */
    static final long PERIOD_MS = 1_000;

    private final List<PlatformState.Instance> processes;
    private final Path proc;
    private final List<ResourceSample> samples = new ArrayList<>();
    private final Map<String, long[]> previous = new HashMap<>();
    private Thread thread;
    private volatile boolean stopped;

    /** A sampler of {@code processes} (name and pid) under {@code proc} (normally {@code /proc}); see {@link #start}. */
    public ResourceSampler(List<PlatformState.Instance> processes, Path proc) {
        this.processes = List.copyOf(processes);
        this.proc = proc;
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
        for (PlatformState.Instance p : processes) {
            if (p.pid() <= 0) {
                continue;
            }
            try {
                Path dir = proc.resolve(Long.toString(p.pid()));
                long rss = ProcStats.rssKb(Files.readString(dir.resolve("status")));
                long ticks = ProcStats.cpuTicks(Files.readString(dir.resolve("stat")));
                long[] before = previous.put(p.name(), new long[] {ticks, nanos});
                double cpu = before == null ? Double.NaN : ProcStats.cpuPercent(before[0], ticks, nanos - before[1]);
                if (rss >= 0) {
                    samples.add(new ResourceSample(now, p.name(), rss, cpu));
                }
            } catch (IOException | RuntimeException e) {
                // the process is gone (or restarting): no sample this second
            }
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
