package dev.jobweaver.scheduler.intake;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.quarantine.EventReader.Read;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Turns a consumed record's raw value into its event, or into the reason it cannot be one, keeping the record's
 * origin and original bytes either way.
 *
 * <p>Channels consume raw bytes and parse here ({@link EventReader}), so that every kind of bad record (empty, not
 * JSON, wrong types, a field that breaks its {@link EventRules}, a key that is not the jobId) takes one path: it
 * becomes {@link Consumed.Refused} and the round that takes it sets it aside in {@code jobweaver-quarantine}
 * ({@link QuarantiningRound}). Nothing is skipped here, and nothing invalid reaches SQL.
 */
@ApplicationScoped
public class IncomingRecords {

    private final ObjectMapper mapper;

    public IncomingRecords(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The record's value as a usable {@code type}, or the reason it is not one.
     *
     * @param rules names the first rule a parsed event breaks, or returns null (an {@code EventRules::problem})
     * @param jobId the event's jobId, which must be the record's key
     */
    public <T> Consumed<T> read(Message<byte[]> record, Class<T> type, Function<T, String> rules,
                                Function<T, UUID> jobId) {
        return read(record, type, rules, (key, event) -> EventRules.keyProblem(key, jobId.apply(event)));
    }

    /**
     * The record's value as a usable {@code type}, or the reason it is not one, for a topic keyed by something other
     * than the jobId.
     *
     * @param keyProblem names what is wrong with the record's key for the parsed event, or returns null (an
     *                   {@code EventRules::scheduleKeyProblem} of the event's id)
     */
    public <T> Consumed<T> read(Message<byte[]> record, Class<T> type, Function<T, String> rules,
                                BiFunction<String, T, String> keyProblem) {
        byte[] value = record.getPayload();
        RecordOrigin origin = RecordOrigin.of(record, value);
        return switch (EventReader.read(mapper, value, type, rules)) {
            case Read.Bad<T> bad -> new Consumed.Refused<>(origin, bad.reason(), bad.detail());
            case Read.Ok<T> ok -> {
                String problem = keyProblem.apply(origin.key(), ok.event());
                yield problem == null ? new Consumed.Usable<>(ok.event(), origin)
                        : new Consumed.Refused<>(origin, QuarantineReason.INVALID, problem);
            }
        };
    }

    /** Acknowledges {@code message}: its offset may be committed. */
    public static Uni<Void> ack(Message<?> message) {
        return Uni.createFrom().completionStage(message::ack);
    }
}
