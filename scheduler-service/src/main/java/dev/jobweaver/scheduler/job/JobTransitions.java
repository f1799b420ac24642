package dev.jobweaver.scheduler.job;

import dev.jobweaver.scheduler.workflow.WorkflowOrchestrator;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Runs every transaction that changes jobs' states (ingestion, dispatch, outcomes, expired leases, commands), and
 * what follows its commit, in one order for all of them.
 *
 * <p><b>Guarantee.</b> In the transaction: the caller's work, which writes rows through the store, publishes through
 * {@link JobStateWriter} (Kafka acknowledges before the commit: the dual-write rule) and moves on workflow runs through
 * {@link Transition#jobsEnded}. Then, only if the transaction committed, in this order: the spans given to
 * {@link Transition#trace} end; the workflow runs' reports and the {@link Transition#onCommit} actions run; the
 * caller's {@code afterCommit} runs with the work's result; and one {@link JobsCommitted} event is fired, if the
 * transaction asked anything of the dispatcher. If it rolled back, the spans end as failed, the workflow round's spans
 * too, and nothing else runs: the returned {@code Uni} fails with the cause. Nothing here adds a statement or a round
 * trip: a batch of jobs is one transaction and one event.
 *
 * <p><b>Threads.</b> The work runs on the Vert.x context of the transaction; {@code afterCommit} and the event's
 * observers run there too, synchronously, after the commit completed, and must not block.
 */
@ApplicationScoped
public class JobTransitions {

    @Inject Pool pool;
    @Inject WorkflowOrchestrator workflows;
    @Inject Event<JobsCommitted> committed;

    /** {@code work} in one transaction, then {@code afterCommit} with its result; completes after both. */
    public <T> Uni<T> run(Function<Transition, Uni<T>> work, BiConsumer<T, Transition> afterCommit) {
        return Uni.createFrom().deferred(() -> {
            Transition[] transition = new Transition[1];
            return pool.withTransaction(tx -> {
                        transition[0] = new Transition(workflows, tx);
                        return work.apply(transition[0]);
                    })
                    .onItemOrFailure().invoke((item, failure) -> {
                        if (transition[0] != null) {
                            transition[0].ended(failure);
                        }
                    })
                    .invoke(item -> {
                        Transition t = transition[0];
                        t.committed();
                        afterCommit.accept(item, t);
                        JobsCommitted event = t.event();
                        if (event != null) {
                            committed.fire(event);
                        }
                    });
        });
    }

    /** {@code work} in one transaction, with nothing of the caller's own after the commit. */
    public <T> Uni<T> run(Function<Transition, Uni<T>> work) {
        return run(work, (item, t) -> {
        });
    }
}
