/**
 * What the worker runs for each job type. {@link dev.jobweaver.worker.handler.JobHandler} is the extension point: one
 * CDI bean per type, in a package of its own under this one ({@code simulation}, {@code http}), found by the
 * {@link dev.jobweaver.worker.handler.HandlerRegistry}. The rest of this package is what a handler is given
 * ({@link dev.jobweaver.worker.handler.RunContext}, {@link dev.jobweaver.worker.handler.Deadline}), what it throws
 * ({@link dev.jobweaver.worker.handler.JobFailure}), and what the run pipeline makes of an attempt
 * ({@link dev.jobweaver.worker.handler.RunResult}).
 */
package dev.jobweaver.worker.handler;
