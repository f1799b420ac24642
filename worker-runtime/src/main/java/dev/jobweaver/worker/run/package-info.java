/**
 * One {@code run-job} record from receipt to acknowledgement, in the order the classes act:
 * {@link dev.jobweaver.worker.run.RunJobConsumer} takes the record on the event loop,
 * {@link dev.jobweaver.worker.run.RunDispatcher} gives it a run slot and a virtual thread,
 * {@link dev.jobweaver.worker.run.JobRunner} records, runs, stores and publishes it,
 * {@link dev.jobweaver.worker.run.AttemptExecutor} runs the attempt through its type's handler within its time bound,
 * and {@link dev.jobweaver.worker.run.OutcomePublisher} sends the stored outcome. What runs a job type is in
 * {@code handler}; the rows are in {@code store}.
 */
package dev.jobweaver.worker.run;
