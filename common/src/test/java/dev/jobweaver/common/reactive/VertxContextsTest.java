package dev.jobweaver.common.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A result completed on another thread comes back to the caller's Vert.x context; without one it stays where it is. */
class VertxContextsTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aUniCompletedElsewhereEmitsOnTheCallersContext() throws Exception {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<String> result = new CompletableFuture<>();
        CompletableFuture<Thread> emittedOn = new CompletableFuture<>();
        CompletableFuture<Thread> callerThread = new CompletableFuture<>();

        context.runOnContext(ignored -> {
            callerThread.complete(Thread.currentThread());
            VertxContexts.backToCaller(Uni.createFrom().completionStage(result))
                    .subscribe().with(item -> emittedOn.complete(Thread.currentThread()));
        });
        callerThread.get(10, TimeUnit.SECONDS);
        Thread.ofPlatform().start(() -> result.complete("done")).join();

        assertThat(emittedOn.get(10, TimeUnit.SECONDS)).isSameAs(callerThread.get());
    }

    @Test
    void theCallerExecutorRunsOnTheCallersContext() throws Exception {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<Executor> executor = new CompletableFuture<>();
        CompletableFuture<Thread> callerThread = new CompletableFuture<>();
        context.runOnContext(ignored -> {
            callerThread.complete(Thread.currentThread());
            executor.complete(VertxContexts.callerExecutor());
        });
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();

        executor.get(10, TimeUnit.SECONDS).execute(() -> ranOn.complete(Thread.currentThread()));

        assertThat(ranOn.get(10, TimeUnit.SECONDS)).isSameAs(callerThread.get());
    }

    @Test
    void withoutAContextTheUniIsReturnedAsIsAndTheExecutorRunsDirectly() {
        Uni<String> uni = Uni.createFrom().item("done");
        assertThat(VertxContexts.backToCaller(uni)).isSameAs(uni);

        Thread[] ranOn = new Thread[1];
        VertxContexts.callerExecutor().execute(() -> ranOn[0] = Thread.currentThread());
        assertThat(ranOn[0]).isSameAs(Thread.currentThread());
        assertThat(uni.await().atMost(Duration.ofSeconds(1))).isEqualTo("done");
    }
}
