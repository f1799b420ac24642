package dev.jobweaver.api.quarantine;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A record's headers as one {@code bytea}, exactly: for each header in order, its key's length and UTF-8 bytes, then
 * its value's length ({@code -1} for a null value) and bytes, every length a big-endian int. Not jsonb: PostgreSQL's
 * text and jsonb refuse a NUL character, which a header's value may hold, and a replay must give back the very bytes.
 */
final class RecordHeaderCodec {

    private RecordHeaderCodec() {
    }

    /** The headers, encoded; an empty array for none. */
    static byte[] encode(Iterable<Header> headers) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (headers != null) {
                for (Header header : headers) {
                    byte[] key = header.key().getBytes(StandardCharsets.UTF_8);
                    out.writeInt(key.length);
                    out.write(key);
                    byte[] value = header.value();
                    out.writeInt(value == null ? -1 : value.length);
                    if (value != null) {
                        out.write(value);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /** The headers {@link #encode} wrote, in order. */
    static List<Header> decode(byte[] encoded) {
        List<Header> headers = new ArrayList<>();
        if (encoded == null) {
            return headers;
        }
        ByteBuffer in = ByteBuffer.wrap(encoded);
        try {
            while (in.hasRemaining()) {
                byte[] key = new byte[in.getInt()];
                in.get(key);
                int length = in.getInt();
                byte[] value = null;
                if (length >= 0) {
                    value = new byte[length];
                    in.get(value);
                }
                headers.add(new RecordHeader(new String(key, StandardCharsets.UTF_8), value));
            }
        } catch (BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("stored headers are cut short after " + headers.size() + " header(s)",
                    e);
        }
        return headers;
    }
}
