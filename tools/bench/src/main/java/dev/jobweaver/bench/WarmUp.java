package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The unreported no-op jobs the bench runs before its workloads, and how warm they left the platform.
 *
 * <p>Why rounds: a JVM service compiles its hot code while it runs it, and until it has, it runs slower and spends CPU
 * on compiling. Measured on the 2-core machine in 2026-11, a just-started platform's JIT
 * compiler threads used about 1 s per service in the first 2,000 jobs, then 0.2-0.4, 0.1-0.2, 0.1, and under 0.1 s from
 * the fifth round of 2,000 on. A fixed warm-up of 2,000 jobs left about 1.7 s of compiling inside the first measured
 * burst, which is why the first burst after a start was the slowest. So by default ({@code --warmup auto}) the bench
 * runs rounds of {@link #ROUND_JOBS} until no platform JVM used {@link #SETTLED_JIT_SECONDS} of JIT CPU in a round,
 * at most {@link #MAX_ROUNDS}; {@code --warmup N} runs exactly N jobs, {@code --warmup 0} none (a cold platform).
 *
 * @param jobsPerRound no-op jobs per round
 * @param roundJitSeconds per round, the largest JIT compiler CPU of any platform JVM (NaN: not readable here)
 * @param adaptive whether rounds went on until the JIT settled ({@code auto}) rather than one fixed round
 * @param settled whether the last round stayed under {@link #SETTLED_JIT_SECONDS} (always false when not adaptive)
 */
public record WarmUp(int jobsPerRound, List<Double> roundJitSeconds, boolean adaptive, boolean settled) {

    /** No-op jobs per adaptive round. */
    public static final int ROUND_JOBS = 2_000;

    /** Most adaptive rounds: 20,000 jobs, after which a platform still compiling is reported as such. */
    public static final int MAX_ROUNDS = 10;

    /** JIT CPU seconds in a round under which a JVM counts as warm: a twentieth of a millisecond per job. */
    public static final double SETTLED_JIT_SECONDS = 0.1;

    /** No warm-up at all. */
    public static WarmUp none() {
        return new WarmUp(0, List.of(), false, false);
    }

    /** One round of exactly {@code jobs}, its JIT CPU recorded. */
    public static WarmUp fixed(int jobs, IntConsumer round, Supplier<Map<String, Double>> jitNow) {
        if (jobs <= 0) {
            return none();
        }
        return new WarmUp(jobs, List.of(roundJit(jobs, round, jitNow)), false, false);
    }

    /**
     * Rounds of {@link #ROUND_JOBS} until one in which no JVM's JIT used {@link #SETTLED_JIT_SECONDS}, at most
     * {@link #MAX_ROUNDS}; where the JIT cannot be read, one round.
     *
     * @param round runs that many no-op jobs and returns once all of them have ended
     * @param jitNow cumulative JIT compiler CPU seconds of each platform JVM by name
     */
    public static WarmUp adaptive(IntConsumer round, Supplier<Map<String, Double>> jitNow) {
        List<Double> perRound = new ArrayList<>();
        while (perRound.size() < MAX_ROUNDS) {
            double jit = roundJit(ROUND_JOBS, round, jitNow);
            perRound.add(jit);
            if (Double.isNaN(jit) || jit < SETTLED_JIT_SECONDS) {
                return new WarmUp(ROUND_JOBS, List.copyOf(perRound), true, !Double.isNaN(jit));
            }
        }
        return new WarmUp(ROUND_JOBS, List.copyOf(perRound), true, false);
    }

    /** Runs one round and returns the largest JIT CPU any JVM used in it, NaN when none could be read. */
    private static double roundJit(int jobs, IntConsumer round, Supplier<Map<String, Double>> jitNow) {
        Map<String, Double> before = jitNow.get();
        round.accept(jobs);
        Map<String, Double> after = jitNow.get();
        double max = Double.NaN;
        for (Map.Entry<String, Double> e : after.entrySet()) {
            Double was = before.get(e.getKey());
            if (was != null) {
                double used = Math.max(0, e.getValue() - was);
                max = Double.isNaN(max) ? used : Math.max(max, used);
            }
        }
        return max;
    }

    /** No-op jobs run in all. */
    public int totalJobs() {
        return jobsPerRound * roundJitSeconds.size();
    }

    /** One line for reports. */
    public String describe() {
        if (roundJitSeconds.isEmpty()) {
            return "none: the first workload met a cold platform";
        }
        String jit = roundJitSeconds.stream().map(s -> Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.2f", s))
                .collect(Collectors.joining(", "));
        String what = String.format(Locale.ROOT, "%,d no-op jobs", totalJobs());
        if (!adaptive) {
            return what + "; largest JIT CPU of a platform JVM in it: " + jit + " s";
        }
        String until = settled
                ? String.format(Locale.ROOT, "until no platform JVM used %.1f s of JIT CPU in a round", SETTLED_JIT_SECONDS)
                : roundJitSeconds.stream().anyMatch(s -> Double.isNaN(s))
                        ? "one round: JIT CPU not readable here"
                        : "the JIT had not settled after " + MAX_ROUNDS + " rounds";
        int rounds = roundJitSeconds.size();
        return String.format(Locale.ROOT, "%s in %d %s of %,d, %s (largest per round: %s s)", what, rounds,
                rounds == 1 ? "round" : "rounds", jobsPerRound, until, jit);
    }
}
