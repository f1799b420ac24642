package dev.jobweaver.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.stream.Stream;

/**
 * Reads RSS and CPU of the platform's processes from {@code /proc} every second while the bench runs.
 *
 * <p>For a process counted with its descendants (PostgreSQL), CPU is the sum over the tree. RSS is the sum of each
 * process's private part ({@code VmRSS - RssShmem - RssFile}) plus the largest {@code RssShmem} and {@code RssFile}
 * once, since every backend maps the same shared buffers and libraries; for a single process that is its VmRSS.
 *
 * <p>For a single process that is a JVM, the CPU of its JIT compiler threads and of its garbage collector threads is
 * read as well ({@code /proc/<pid>/task/<tid>/stat}, threads told apart by name, {@link ProcStats#runtimeThread}): a
 * service that is still compiling its hot code shows it there, which is what makes the first burst after a start
 * slower than the next. A thread that ends takes its CPU with it; the figure then undercounts, never goes negative.
 *
 * <p>Each reading also takes the whole machine's CPU time ({@code /proc/stat}, {@link MachineCpu}): how busy the cores
 * were and how much of their time the hypervisor stole.
 */
public final class ResourceSampler implements AutoCloseable {

    /** Sampling period, milliseconds. */
    static final long PERIOD_MS = 1_000;

    /** A JVM's runtime threads are listed again every this many readings, since compiler threads come and go. */
    static final int THREAD_RESCAN_EVERY = 10;

    /** The runtime threads of one process: thread id to kind, only JIT and GC threads. */
    private record RuntimeThreads(long pid, Map<Long, ProcStats.RuntimeThread> threads) {
    }

    private final List<SampledProcess> processes;
    private final LongFunction<List<Long>> descendants;
    private final Path proc;
    private final List<ResourceSample> samples = new ArrayList<>();
    private final List<MachineCpu> machine = new ArrayList<>();
    private final Map<String, long[]> previous = new HashMap<>();
    private final Map<String, RuntimeThreads> runtimeThreads = new HashMap<>();
    private final Map<String, long[]> previousRuntime = new HashMap<>();
    private int readings;
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

    /** Every reading of the machine's CPU time so far, in reading order. */
    public synchronized List<MachineCpu> machineReadings() {
        return List.copyOf(machine);
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
        try {
            machine.add(MachineCpu.parse(now, Files.readString(proc.resolve("stat"))));
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc/stat unreadable: the machine's load is unknown, the processes' figures stand
        }
        for (SampledProcess p : processes) {
            if (p.pid() <= 0) {
                continue;
            }
            List<Long> pids = p.pids(descendants);
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
                previousRuntime.remove(p.name());
                continue;
            }
            long[] before = previous.put(p.name(), new long[] {ticks, nanos});
            double cpu = before == null ? Double.NaN
                    : ProcStats.cpuPercent(before[0], Math.max(before[0], ticks), nanos - before[1]);
            double jit = Double.NaN;
            double gc = Double.NaN;
            long[] runtime = p.withDescendants() ? null : runtimeTicks(p);
            if (runtime == null) {
                previousRuntime.remove(p.name());
            } else {
                long[] runtimeBefore = previousRuntime.put(p.name(), runtime);
                if (runtimeBefore != null && before != null) {
                    jit = Math.max(0, runtime[0] - runtimeBefore[0]) / (double) ProcStats.CLOCK_TICKS_PER_SECOND;
                    gc = Math.max(0, runtime[1] - runtimeBefore[1]) / (double) ProcStats.CLOCK_TICKS_PER_SECOND;
                }
            }
            samples.add(new ResourceSample(now, p.name(), privateKb + sharedKb + fileKb, cpu, jit, gc));
        }
        readings++;
    }

    /**
     * Cumulative CPU seconds of the JIT compiler threads of every sampled JVM but the bench itself, read now (the
     * warm-up asks between its rounds); a process that is not a JVM, or is gone, is missing.
     */
    public synchronized Map<String, Double> platformJitCpuSeconds() {
        Map<String, Double> jit = new HashMap<>();
        for (SampledProcess p : processes) {
            if (p.pid() > 0 && !p.withDescendants() && !p.name().equals(Bench.SELF)) {
                long[] ticks = runtimeTicks(p);
                if (ticks != null) {
                    jit.put(p.name(), ticks[0] / (double) ProcStats.CLOCK_TICKS_PER_SECOND);
                }
            }
        }
        return jit;
    }

    /** Clock ticks of the JIT threads and of the GC threads of {@code p}, or null when it has none (not a JVM). */
    private long[] runtimeTicks(SampledProcess p) {
        Path tasks = proc.resolve(Long.toString(p.pid())).resolve("task");
        RuntimeThreads known = runtimeThreads.get(p.name());
        if (known == null || known.pid() != p.pid() || readings % THREAD_RESCAN_EVERY == 0) {
            known = new RuntimeThreads(p.pid(), scan(tasks));
            runtimeThreads.put(p.name(), known);
        }
        if (known.threads().isEmpty()) {
            return null;
        }
        long[] ticks = new long[2];
        known.threads().forEach((tid, kind) -> {
            try {
                long t = ProcStats.cpuTicks(Files.readString(tasks.resolve(Long.toString(tid)).resolve("stat")));
                ticks[kind == ProcStats.RuntimeThread.JIT ? 0 : 1] += t;
            } catch (IOException | RuntimeException e) {
                // the thread has ended; the next scan forgets it
            }
        });
        return ticks;
    }

    /** The JIT and GC threads under {@code tasks} ({@code /proc/<pid>/task}); none when it cannot be read. */
    private static Map<Long, ProcStats.RuntimeThread> scan(Path tasks) {
        Map<Long, ProcStats.RuntimeThread> threads = new HashMap<>();
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : list.toList()) {
                try {
                    ProcStats.RuntimeThread kind = ProcStats.runtimeThread(Files.readString(task.resolve("comm")));
                    if (kind != ProcStats.RuntimeThread.OTHER) {
                        threads.put(Long.parseLong(task.getFileName().toString()), kind);
                    }
                } catch (IOException | NumberFormatException e) {
                    // a thread that ended while the folder was listed
                }
            }
        } catch (IOException e) {
            // the process ended, or /proc is not readable: no runtime figures
        }
        return threads;
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
