package dev.jobweaver.common.reactive;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.Executor;

/**
 * Brings a result back to the Vert.x context of the code that asked for it.
 *
 * <p>Group commits, rounds and run slots complete on whichever thread finished the shared work (another request's
 * event loop, the SQL client's, a virtual thread). A connector's stream or a request that continued there would run
 * on a thread that is not its own; these helpers resume it on the context it came from.
 *
 * <p>Both capture the calling thread's context when they are called, so call them on that thread (before handing the
 * work off). A caller on no Vert.x context (a test, a plain thread) gets its result where it completes.
 */
public final class VertxContexts {

    private VertxContexts() {
    }

    /** {@code uni}, emitting its item or failure on the calling thread's Vert.x context; as is if there is none. */
    public static <T> Uni<T> backToCaller(Uni<T> uni) {
        Context caller = Vertx.currentContext();
        return caller == null ? uni : uni.emitOn(onContext(caller));
    }

    /** An executor that runs on the calling thread's Vert.x context, or directly if there is none. */
    public static Executor callerExecutor() {
        Context caller = Vertx.currentContext();
        return caller == null ? Runnable::run : onContext(caller);
    }

    private static Executor onContext(Context context) {
        return command -> context.runOnContext(ignored -> command.run());
    }
}
