package dev.jobweaver.bench;

/** Parses Linux {@code /proc/<pid>/status}, {@code /proc/<pid>/stat} and a thread's {@code comm}. */
public final class ProcStats {

    /** Clock ticks per second of {@code utime}/{@code stime}: USER_HZ, 100 on every mainstream Linux. */
    public static final int CLOCK_TICKS_PER_SECOND = 100;

    private ProcStats() {
    }

    /** {@code VmRSS} in kB from the text of {@code /proc/<pid>/status}, or -1 when absent (a zombie, a kernel thread). */
    public static long rssKb(String status) {
        return statusKb(status, "VmRSS");
    }

    /** {@code RssShmem} in kB (shared memory counted in VmRSS, e.g. PostgreSQL's shared buffers), or 0 when absent. */
    public static long rssShmemKb(String status) {
        return Math.max(0, statusKb(status, "RssShmem"));
    }

    /** {@code RssFile} in kB (mapped files such as shared libraries, the same pages in every process), or 0. */
    public static long rssFileKb(String status) {
        return Math.max(0, statusKb(status, "RssFile"));
    }

    /** A {@code kB} field of {@code /proc/<pid>/status}, or -1 when absent. */
    static long statusKb(String status, String field) {
        String prefix = field + ":";
        for (String line : status.split("\n")) {
            if (line.startsWith(prefix)) {
                String[] parts = line.substring(prefix.length()).trim().split("\\s+");
                return Long.parseLong(parts[0]);
            }
        }
        return -1;
    }

    /**
     * {@code utime + stime} in clock ticks from the line of {@code /proc/<pid>/stat}. The command name (field 2) may
     * hold spaces and parentheses, so fields are counted from the last ')'.
     */
    public static long cpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
        }
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        // fields[0] is field 3 (state); utime is field 14, stime field 15
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** What a JVM thread does for the runtime rather than for the application, told by its name. */
    public enum RuntimeThread {
        /** A JIT compiler thread ({@code C1 CompilerThre}, {@code C2 CompilerThre}: names are cut at 15 bytes). */
        JIT,
        /**
         * A garbage collector thread: {@code GC Thread#n}, G1's ({@code G1 ...}), ZGC's and Shenandoah's, and the
         * {@code VM Thread}, where the serial collector (the services' collector) does all of its work. The VM thread
         * also runs other safepoint operations, which are small beside collections.
         */
        GC,
        /** Anything else, the application's threads included. */
        OTHER
    }

    /** The kind of a JVM thread from its {@code /proc/<pid>/task/<tid>/comm} (trailing new line allowed). */
    public static RuntimeThread runtimeThread(String comm) {
        String name = comm.strip();
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return RuntimeThread.JIT;
        }
        if (name.equals("VM Thread") || name.startsWith("GC Thread#") || name.startsWith("G1 ")
                || name.startsWith("ZWorker") || name.startsWith("ZDriver") || name.startsWith("Shenandoah")) {
            return RuntimeThread.GC;
        }
        return RuntimeThread.OTHER;
    }

    /** Percent of one core used between two readings {@code wallNanos} apart. */
    public static double cpuPercent(long ticksBefore, long ticksAfter, long wallNanos) {
        if (wallNanos <= 0) {
            return Double.NaN;
        }
        double cpuSeconds = (ticksAfter - ticksBefore) / (double) CLOCK_TICKS_PER_SECOND;
        return 100.0 * cpuSeconds / (wallNanos / 1e9);
    }
}
