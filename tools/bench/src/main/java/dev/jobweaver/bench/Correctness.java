package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether every accepted job ended as it must, exactly once.
 *
 * @param accepted jobs the API answered 202 for
 * @param asExpected jobs COMPLETED with the expected attempts and execution rows
 * @param lost jobs with no terminal status when the bench stopped waiting (or no row at all)
 * @param duplicated jobs executed more often than expected (more execution rows than expected attempts); execution
 *     rows that could not be read (-1) are not judged
 * @param unexpected other terminal jobs that did not end as expected (FAILED, wrong attempts, missing rows)
 * @param examples a few offending jobs with what is wrong, for the report
 */
public record Correctness(int accepted, int asExpected, int lost, int duplicated, int unexpected,
                          List<String> examples) {

    /** Offending jobs listed at most. */
    static final int MAX_EXAMPLES = 10;

    /** Whether every job ended as expected. */
    public boolean ok() {
        return lost == 0 && duplicated == 0 && unexpected == 0;
    }

    /** Checks every record against its kind's expectation. */
    public static Correctness check(List<JobRecord> jobs) {
        Tally tally = new Tally();
        for (JobRecord job : jobs) {
            int want = job.kind().expectedAttempts();
            String which = job.jobId() + " (" + job.kind().name().toLowerCase() + "): ";
            if (!job.terminal()) {
                tally.lost(which + (job.status() == null ? "no row in jobweaver_api.jobs" : "still " + job.status()));
            } else if (job.executions() >= 0 && job.executions() > want) {
                tally.duplicated(which + "executed " + job.executions() + " times, expected " + want);
            } else if (!job.completed() || job.attempts() != want
                    || (job.executions() >= 0 && job.executions() != want)) {
                tally.unexpected(which + job.status() + " with attempts " + job.attempts() + " and "
                        + job.executions() + " execution rows, expected COMPLETED with " + want);
            } else {
                tally.asExpected();
            }
        }
        return tally.of(jobs.size());
    }

    /**
     * Counts judged jobs (or runs) into a {@link Correctness}, in the order they are judged; of the problems, the first
     * {@link #MAX_EXAMPLES} are kept as examples. Not thread-safe: one judge fills it.
     */
    static final class Tally {

        private int asExpected;
        private int lost;
        private int duplicated;
        private int unexpected;
        private final List<String> examples = new ArrayList<>();

        void asExpected() {
            asExpected++;
        }

        /** One lost, {@code example} naming it and what is wrong. */
        void lost(String example) {
            lost++;
            example(example);
        }

        /** One duplicated, {@code example} naming it and what is wrong. */
        void duplicated(String example) {
            duplicated++;
            example(example);
        }

        /** One that ended otherwise than expected, {@code example} naming it and what is wrong. */
        void unexpected(String example) {
            unexpected++;
            example(example);
        }

        private void example(String example) {
            if (examples.size() < MAX_EXAMPLES) {
                examples.add(example);
            }
        }

        /** The counts, of {@code accepted} jobs (or runs) judged. */
        Correctness of(int accepted) {
            return new Correctness(accepted, asExpected, lost, duplicated, unexpected, List.copyOf(examples));
        }
    }

    /** This and {@code other} together: the counts added, the examples of both (this one's first). */
    public Correctness plus(Correctness other) {
        List<String> both = new ArrayList<>(examples);
        both.addAll(other.examples);
        return new Correctness(accepted + other.accepted, asExpected + other.asExpected, lost + other.lost,
                duplicated + other.duplicated, unexpected + other.unexpected,
                List.copyOf(both.subList(0, Math.min(both.size(), MAX_EXAMPLES))));
    }

    /** One line: {@code 20000/20000 as expected, 0 lost, 0 duplicated, 0 unexpected}. */
    public String summary() {
        return asExpected + "/" + accepted + " as expected, " + lost + " lost, " + duplicated + " duplicated, "
                + unexpected + " unexpected";
    }
}
