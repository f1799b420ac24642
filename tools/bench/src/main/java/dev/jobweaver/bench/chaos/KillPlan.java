package dev.jobweaver.bench.chaos;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Which target each kill of a run hits: the five targets in a random order, then again in a new random order, and so
 * on, all drawn from one seed, so that the same seed repeats the same sequence.
 *
 * <p>Why rounds rather than an independent draw per kill: with independent draws a two-minute run of five kills misses
 * Kafka and PostgreSQL both one time in thirteen ((3/5)^5), and a long run hits some targets far more often than
 * others; in rounds, every five kills hit every target once, in an order no one can predict.
 */
public final class KillPlan {

    private final Random random;
    /** Its own stream, so that the number of replicas never changes which targets the seed picks. */
    private final Random instances;
    private final List<Target> round = new ArrayList<>();

    /** The plan of {@code seed}. */
    public KillPlan(long seed) {
        this.random = new Random(seed);
        this.instances = new Random(~seed);
    }

    /** The next target. */
    public Target next() {
        if (round.isEmpty()) {
            round.addAll(Arrays.asList(Target.values()));
            Collections.shuffle(round, random);
        }
        return round.removeFirst();
    }

    /** Which of {@code count} instances (replicas of one service) to kill, from the same seed. */
    public int instance(int count) {
        return count <= 1 ? 0 : instances.nextInt(count);
    }

    /** The first {@code count} targets of the plan of {@code seed}, e.g. to print what a seed will do. */
    public static List<Target> first(long seed, int count) {
        KillPlan plan = new KillPlan(seed);
        List<Target> targets = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            targets.add(plan.next());
        }
        return targets;
    }
}
