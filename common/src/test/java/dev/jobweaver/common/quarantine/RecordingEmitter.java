package dev.jobweaver.common.quarantine;

import dev.jobweaver.common.quarantine.QuarantineHeaders;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Message;

/** The quarantine's emitter without Kafka: records every send and answers it as the test says. */
final class RecordingEmitter {

    /** What was sent: the copy's key, its origin offset and its reason header. */
    record Sent(String key, long offset, String reason) {
    }

    final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final Function<Sent, Uni<Void>> answer;

    /** @param answer Kafka's answer to each send: completes for an acknowledgement, fails for an error */
    RecordingEmitter(Function<Sent, Uni<Void>> answer) {
        this.answer = answer;
    }

    /** An emitter every send of which Kafka acknowledges at once. */
    static RecordingEmitter acknowledging() {
        return new RecordingEmitter(s -> Uni.createFrom().voidItem());
    }

    @SuppressWarnings("unchecked")
    MutinyEmitter<byte[]> emitter() {
        return (MutinyEmitter<byte[]>) Proxy.newProxyInstance(MutinyEmitter.class.getClassLoader(),
                new Class<?>[] {MutinyEmitter.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "sendMessage" -> {
                        Message<byte[]> message = (Message<byte[]>) args[0];
                        OutgoingKafkaRecordMetadata<String> meta = message
                                .getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow();
                        Sent sent = new Sent(meta.getKey(),
                                Long.parseLong(header(meta, QuarantineHeaders.OFFSET)),
                                header(meta, QuarantineHeaders.REASON));
                        // Lazy, as the real emitter: nothing is sent until the Uni is subscribed to.
                        yield Uni.createFrom().deferred(() -> {
                            this.sent.add(sent);
                            return answer.apply(sent);
                        });
                    }
                    case "toString" -> "recording emitter";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static String header(OutgoingKafkaRecordMetadata<String> meta, String name) {
        Header header = meta.getHeaders().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
