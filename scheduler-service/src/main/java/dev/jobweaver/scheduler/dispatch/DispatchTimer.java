package dev.jobweaver.scheduler.dispatch;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Wakes the dispatcher periodically, for retries that became due and work left by other replicas. */
@ApplicationScoped
public class DispatchTimer {

    @Inject Dispatcher dispatcher;

    @Scheduled(every = "${jobweaver.scheduler.dispatch.interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void tick() {
        dispatcher.wake();
    }
}
