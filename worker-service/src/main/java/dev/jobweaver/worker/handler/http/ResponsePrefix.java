package dev.jobweaver.worker.handler.http;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The first {@code limit} bytes of a response body, and whether there were more. Reading stops there: the rest is
 * never downloaded, so a huge or endless body costs neither memory nor time.
 *
 * @param bytes at most {@code limit} bytes
 * @param truncated whether the body was longer
 */
record ResponsePrefix(byte[] bytes, boolean truncated) {

    /** A body handler keeping the first {@code limit} bytes. */
    static HttpResponse.BodyHandler<ResponsePrefix> handler(int limit) {
        return info -> new Subscriber(limit);
    }

    /** Collects up to {@code limit} bytes, then cancels the subscription. Flow signals arrive one at a time. */
    private static final class Subscriber implements HttpResponse.BodySubscriber<ResponsePrefix> {

        private final int limit;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private final CompletableFuture<ResponsePrefix> body = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Subscriber(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<ResponsePrefix> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (body.isDone()) {
                return;
            }
            for (ByteBuffer buffer : buffers) {
                // One byte past the limit tells a body of exactly `limit` bytes from a longer one.
                int take = Math.min(buffer.remaining(), limit + 1 - kept.size());
                byte[] chunk = new byte[take];
                buffer.get(chunk);
                kept.writeBytes(chunk);
                if (kept.size() > limit) {
                    subscription.cancel();
                    body.complete(new ResponsePrefix(java.util.Arrays.copyOf(kept.toByteArray(), limit), true));
                    return;
                }
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable failure) {
            body.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            body.complete(new ResponsePrefix(kept.toByteArray(), false));
        }
    }
}
