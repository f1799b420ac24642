/**
 * The job handler contract: what a team implements to run its own job types on JobWeaver.
 * {@link dev.jobweaver.sdk.JobHandler} is the extension point (a type name, a payload class, a bound, a run); a run is
 * given a {@link dev.jobweaver.sdk.RunContext} with its {@link dev.jobweaver.sdk.Deadline}, and fails by throwing a
 * {@link dev.jobweaver.sdk.JobFailure}. An application that depends on {@code jobweaver-worker} and holds handler beans
 * is a worker of the platform; {@code docs/job-types.md} walks through one.
 */
package dev.jobweaver.sdk;
