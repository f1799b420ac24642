package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Two submissions of one workload (the cancel workload's groups) as one. */
class SubmissionTest {

    @Test
    void countsAndSendingTimesAddTheFirstStartAndRejectionStay() {
        Submission first = new Submission(10, 9, 1, null, at(0), 0.5, 0);
        Submission later = new Submission(20, 18, 2, "503 busy", at(5_000), 1.25, 3);
        Submission both = first.plus(later);
        assertThat(both).isEqualTo(new Submission(30, 27, 3, "503 busy", at(0), 1.75, 3));
        assertThat(new Submission(1, 0, 1, "400 no", null, 0.1, 0).plus(later).firstRejection()).isEqualTo("400 no");
        assertThat(new Submission(0, 0, 0, null, null, 0, 0).plus(later).startedAt()).isEqualTo(at(5_000));
    }
}
