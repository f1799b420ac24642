package dev.jobweaver.common.schedule;

/** Whether a tick makes a job while the job of an earlier tick of the same schedule has not finished. */
public enum Overlap {
    /** Every tick makes its job, whatever the earlier ones are doing. */
    ALLOW,
    /** A tick is skipped (and counted) while an earlier job of the schedule is still PENDING or RUNNING. */
    SKIP
}
