package dev.jobweaver.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How fast the machine was when the run began, measured by the bench before its warm-up while the platform is idle.
 *
 * <p>Why: on a shared virtual machine the same box can be twice as slow one day as another, since its neighbours
 * share the processor's caches and memory. The platform's code is memory-bound (objects, queues, buffers), so a
 * burst's throughput falls with the memory latency; two runs' figures compare only when this figure is alike. The
 * probe is a dependent random read (pointer chase) over {@link #WORKING_SET_BYTES}, beyond a core's own caches: the
 * same shape of work the services do between them, without their noise.
 *
 * @param cpuModel {@code model name} of {@code /proc/cpuinfo}, or {@code unknown}
 * @param cpus processors the JVM may use
 * @param memoryLatencyNs mean nanoseconds of one dependent random read over the working set
 */
public record Machine(String cpuModel, int cpus, double memoryLatencyNs) {

    /** The probe's working set: 32 MiB, more than the per-core caches of any current server processor. */
    static final int WORKING_SET_BYTES = 32 << 20;

    /** Reads per measurement: about half a second on a machine with 250 ns reads. */
    static final int READS = 2_000_000;

    /** Probes this machine (about a second). */
    public static Machine probe() {
        return new Machine(readCpuModel(), Runtime.getRuntime().availableProcessors(),
                memoryLatencyNs(WORKING_SET_BYTES, READS));
    }

    /**
     * Mean nanoseconds of one read of a chain of {@code reads} dependent reads over an {@code int[]} of
     * {@code bytes}: every read's address is the value the previous one returned, so no two overlap.
     */
    static double memoryLatencyNs(int bytes, int reads) {
        int[] next = singleCycle(Math.max(2, bytes / Integer.BYTES));
        int at = chase(next, 0, Math.min(reads, 100_000)); // compiles the loop first
        long start = System.nanoTime();
        at = chase(next, at, reads);
        long elapsed = System.nanoTime() - start;
        if (at < 0) {
            throw new AssertionError(); // never: keeps the chase from being optimised away
        }
        return elapsed / (double) reads;
    }

    private static int chase(int[] next, int from, int reads) {
        int at = from;
        for (int i = 0; i < reads; i++) {
            at = next[at];
        }
        return at;
    }

    /** A random permutation that is one cycle through every index (Sattolo's algorithm), so the chase never loops early. */
    static int[] singleCycle(int n) {
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[i] = i;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int swap = next[i];
            next[i] = next[j];
            next[j] = swap;
        }
        return next;
    }

    /** The processor's model name from {@code /proc/cpuinfo}, or {@code unknown} where there is none. */
    static String readCpuModel() {
        try {
            return modelName(Files.readString(Path.of("/proc/cpuinfo")));
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** The first {@code model name} of a {@code /proc/cpuinfo} text, or {@code unknown}. */
    static String modelName(String cpuinfo) {
        for (String line : cpuinfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals("model name")) {
                String name = line.substring(colon + 1).strip();
                return name.isEmpty() ? "unknown" : name;
            }
        }
        return "unknown";
    }

    /** One line for reports. */
    public String describe() {
        return String.format(java.util.Locale.ROOT,
                "%s, %d CPUs; memory latency %.0f ns (dependent random reads over %d MiB, measured before the run)",
                cpuModel, cpus, memoryLatencyNs, WORKING_SET_BYTES >> 20);
    }
}
