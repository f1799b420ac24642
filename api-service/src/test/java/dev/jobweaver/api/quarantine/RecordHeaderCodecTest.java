package dev.jobweaver.api.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.quarantine.QuarantineHeaders;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

/** Headers kept as bytes come back exactly, and a replay leaves out exactly the quarantine's own. */
class RecordHeaderCodecTest {

    @Test
    void headersComeBackExactlyInTheirOrder() {
        List<Header> headers = List.of(new RecordHeader("eventId", "e-1".getBytes(StandardCharsets.UTF_8)),
                new RecordHeader("nul\0key", new byte[] {0, (byte) 0xff}),
                new RecordHeader("empty", new byte[0]),
                new RecordHeader("none", null),
                new RecordHeader("eventId", "e-2".getBytes(StandardCharsets.UTF_8)));

        List<Header> back = RecordHeaderCodec.decode(RecordHeaderCodec.encode(headers));

        assertThat(back).isEqualTo(headers);
        assertThat(RecordHeaderCodec.decode(RecordHeaderCodec.encode(List.of()))).isEmpty();
    }

    @Test
    void aCutShortEncodingIsRefused() {
        byte[] whole = RecordHeaderCodec.encode(List.of(new RecordHeader("k", new byte[] {1, 2, 3})));
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 1);
        assertThatThrownBy(() -> RecordHeaderCodec.decode(cut)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aReplayLeavesOutEveryQuarantineHeaderAndOnlyThose() throws IllegalAccessException {
        List<Header> headers = new java.util.ArrayList<>();
        headers.add(new RecordHeader("traceparent", new byte[] {1}));
        for (Field field : QuarantineHeaders.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                headers.add(new RecordHeader((String) field.get(null), new byte[] {2}));
            }
        }
        headers.add(new RecordHeader("jobweaver.other", new byte[] {3}));
        assertThat(headers).hasSizeGreaterThan(8);

        assertThat(ReplayPublisher.originalHeaders(headers)).extracting(Header::key)
                .containsExactly("traceparent", "jobweaver.other");
    }
}
