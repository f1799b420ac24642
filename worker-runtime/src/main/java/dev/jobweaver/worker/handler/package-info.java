/**
 * The application's job handlers as the worker finds them: {@link dev.jobweaver.worker.handler.HandlerRegistry} collects
 * the CDI beans implementing {@link dev.jobweaver.sdk.JobHandler} (the public contract, in {@code jobweaver-worker-sdk}),
 * and {@link dev.jobweaver.worker.handler.RunResult} is what the run pipeline makes of an attempt.
 */
package dev.jobweaver.worker.handler;
