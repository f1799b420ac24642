package dev.jobweaver.bench;

import java.util.List;

/**
 * One reading of the whole machine's CPU time, from the first line of {@code /proc/stat} (all cores, cumulative clock
 * ticks since boot).
 *
 * <p>Why: on a shared virtual machine the hypervisor may run another guest while this one has work ready; that time
 * is <em>stolen</em>, counted by the kernel as {@code steal}. The processes' own CPU figures do not show it, but every
 * hand-off between them then waits longer, so a run whose cores were stolen from has worse latencies with the same CPU
 * per job. {@link Load} over a workload's window says how much that was, so two runs' tails compare only when it is
 * alike.
 *
 * @param epochMs when it was read
 * @param busyTicks ticks spent on anything but idle, I/O wait and steal: user, nice, system, irq, softirq
 * @param stealTicks ticks stolen by the hypervisor
 * @param totalTicks all ticks, steal included ({@code guest} time is already inside user and nice, so not added)
 */
public record MachineCpu(long epochMs, long busyTicks, long stealTicks, long totalTicks) {

    /**
     * The {@code cpu} line of a {@code /proc/stat} text read at {@code epochMs}.
     *
     * @throws IllegalArgumentException when the text has no aggregate {@code cpu} line of at least four numbers
     */
    public static MachineCpu parse(long epochMs, String procStat) {
        for (String line : procStat.split("\n")) {
            String[] fields = line.strip().split("\\s+");
            if (!fields[0].equals("cpu")) {
                continue;
            }
            if (fields.length < 5) {
                throw new IllegalArgumentException("the cpu line of /proc/stat has fewer than four figures: " + line);
            }
            // user nice system idle iowait irq softirq steal guest guest_nice; kernels before 2.6.11 stop at iowait
            long user = field(fields, 1);
            long nice = field(fields, 2);
            long system = field(fields, 3);
            long idle = field(fields, 4);
            long iowait = field(fields, 5);
            long irq = field(fields, 6);
            long softirq = field(fields, 7);
            long steal = field(fields, 8);
            long busy = user + nice + system + irq + softirq;
            return new MachineCpu(epochMs, busy, steal, busy + idle + iowait + steal);
        }
        throw new IllegalArgumentException("no aggregate cpu line in /proc/stat");
    }

    private static long field(String[] fields, int index) {
        return index < fields.length ? Long.parseLong(fields[index]) : 0;
    }

    /**
     * How the machine's cores were used over a window.
     *
     * @param busyPercent share of all cores' time spent running something, 0 to 100 (two cores both busy: 100)
     * @param stolenPercent share of all cores' time the hypervisor gave to another guest, 0 to 100
     */
    public record Load(double busyPercent, double stolenPercent) {

        /** No figure: fewer than two readings in the window, or no time passed between them. */
        public static final Load UNKNOWN = new Load(Double.NaN, Double.NaN);

        /** Whether there is a figure. */
        public boolean known() {
            return !Double.isNaN(busyPercent);
        }

        /**
         * The load between the first and the last of {@code readings} (in reading order) with
         * {@code fromMs <= epochMs <= toMs}; {@link #UNKNOWN} when fewer than two are in the window.
         */
        public static Load of(List<MachineCpu> readings, long fromMs, long toMs) {
            MachineCpu first = null;
            MachineCpu last = null;
            for (MachineCpu reading : readings) {
                if (reading.epochMs() >= fromMs && reading.epochMs() <= toMs) {
                    if (first == null) {
                        first = reading;
                    }
                    last = reading;
                }
            }
            if (first == null || last == first || last.totalTicks() <= first.totalTicks()) {
                return UNKNOWN;
            }
            double total = last.totalTicks() - first.totalTicks();
            return new Load(100.0 * Math.max(0, last.busyTicks() - first.busyTicks()) / total,
                    100.0 * Math.max(0, last.stealTicks() - first.stealTicks()) / total);
        }
    }
}
