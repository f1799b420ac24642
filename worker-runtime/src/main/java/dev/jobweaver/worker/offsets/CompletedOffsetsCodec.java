package dev.jobweaver.worker.offsets;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Encodes the offsets completed above a committed offset into Kafka's commit metadata string, and back.
 *
 * <h2>Format</h2>
 * {@value #PREFIX} followed by unpadded URL-safe Base64 of:
 * <pre>
 *   kind     1 byte   0 = run-length, 1 = bitmap
 *   base     varint   the committed offset the set is relative to (checked on decode)
 *   span     varint   positions covered; position p is offset base + 1 + p
 *   payload           run-length: (gap, run) varint pairs, gap = positions not completed, run = completed (>= 1)
 *                     bitmap: ceil(span / 8) bytes, bit p (least significant first) set when position p completed
 * </pre>
 * The offset {@code base} itself is never in the set: it is the first offset not completed, which is why it is the
 * committed one. Whichever of the two payloads is shorter is written: run-length wins for sparse sets and long
 * contiguous stretches, the bitmap for fragmented ones.
 *
 * <h2>The size bound</h2>
 * Kafka refuses a commit whose metadata is longer than {@code offset.metadata.max.bytes} (4096 by default). When the
 * whole set does not fit in {@code maxChars}, a prefix of it is encoded (the lowest offsets, which the next owner of
 * the partition meets first) and {@link Encoded#dropped()} says how many completed offsets were left out. Those
 * records will be delivered again to whoever owns the partition next; that is still at-least-once, and safe because
 * the worker recognises a finished run by its {@code event_id} and only re-publishes its stored outcome.
 */
final class CompletedOffsetsCodec {

    /** Marks metadata written by this codec, version 1; anything else is ignored on decode. */
    public static final String PREFIX = "jw1:";
    /** Kafka's default {@code offset.metadata.max.bytes}. */
    public static final int KAFKA_DEFAULT_MAX_METADATA = 4096;

    private static final byte RUN_LENGTH = 0;
    private static final byte BITMAP = 1;
    /** Upper bound of a varint-encoded int span, used when budgeting the header. */
    private static final int MAX_SPAN_VARINT = 5;

    private CompletedOffsetsCodec() {
    }

    /**
     * The result of an encoding.
     *
     * @param metadata the string to commit; empty when there was nothing to record
     * @param encoded how many completed offsets it records
     * @param dropped how many completed offsets did not fit and were left out (the highest ones)
     */
    public record Encoded(String metadata, int encoded, int dropped) {
    }

    /**
     * A decoded metadata string.
     *
     * @param base the committed offset it was written with
     * @param completed the completed offsets above {@code base}
     */
    public record Decoded(long base, NavigableSet<Long> completed) {
    }

    /**
     * Encodes {@code completed} (offsets strictly greater than {@code base}) within {@code maxChars} characters.
     *
     * @throws IllegalArgumentException if an offset is not above {@code base}, or {@code maxChars} cannot hold even
     *         an empty set
     */
    public static Encoded encode(long base, NavigableSet<Long> completed, int maxChars) {
        if (completed.isEmpty()) {
            return new Encoded("", 0, 0);
        }
        if (completed.first() <= base) {
            throw new IllegalArgumentException("offset " + completed.first() + " is not above the base " + base);
        }
        int budgetBytes = (maxChars - PREFIX.length()) * 3 / 4;
        int payloadBudget = budgetBytes - 1 - varintLength(base) - MAX_SPAN_VARINT;
        if (payloadBudget < 0) {
            throw new IllegalArgumentException("maxChars " + maxChars + " cannot hold any commit metadata");
        }
        long[] positions = completed.stream().mapToLong(o -> o - base - 1).toArray();
        long lastPosition = positions[positions.length - 1];
        if (lastPosition >= Integer.MAX_VALUE) {
            // Unreachable in practice (two billion records in flight); encode what an int span can hold.
            positions = completed.headSet(base + Integer.MAX_VALUE, false).stream().mapToLong(o -> o - base - 1).toArray();
        }

        RunLength runLength = RunLength.of(positions, payloadBudget);
        Bitmap bitmap = Bitmap.of(positions, payloadBudget);
        boolean useBitmap = bitmap.count > runLength.count
                || (bitmap.count == runLength.count && bitmap.payload.length < runLength.payload.length);
        byte kind = useBitmap ? BITMAP : RUN_LENGTH;
        int count = useBitmap ? bitmap.count : runLength.count;
        byte[] payload = useBitmap ? bitmap.payload : runLength.payload;
        if (count == 0) {
            return new Encoded("", 0, completed.size());
        }
        long span = positions[count - 1] + 1;

        ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length + 12);
        out.write(kind);
        writeVarint(out, base);
        writeVarint(out, span);
        out.writeBytes(payload);
        String metadata = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
        return new Encoded(metadata, count, completed.size() - count);
    }

    /** Decodes metadata written by {@link #encode}; empty for null, blank, foreign or damaged metadata. */
    public static Optional<Decoded> decode(String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX)) {
            return Optional.empty();
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(Base64.getUrlDecoder().decode(metadata.substring(PREFIX.length())));
            byte kind = in.get();
            long base = readVarint(in);
            long span = readVarint(in);
            NavigableSet<Long> completed = new TreeSet<>();
            if (kind == RUN_LENGTH) {
                long position = 0;
                while (in.hasRemaining()) {
                    position += readVarint(in);
                    long run = readVarint(in);
                    for (long i = 0; i < run; i++) {
                        completed.add(base + 1 + position++);
                    }
                }
            } else if (kind == BITMAP) {
                for (long p = 0; p < span; p++) {
                    int b = in.get((int) (in.position() + p / 8)) & 0xff;
                    if ((b & (1 << (p % 8))) != 0) {
                        completed.add(base + 1 + p);
                    }
                }
            } else {
                return Optional.empty();
            }
            if (!completed.isEmpty() && completed.last() - base > span) {
                return Optional.empty();
            }
            return Optional.of(new Decoded(base, completed));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Run-length payload of the longest prefix of {@code positions} that fits in {@code budget} bytes. */
    private record RunLength(byte[] payload, int count) {
        static RunLength of(long[] positions, int budget) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int count = 0;
            long next = 0; // first position not yet described
            int i = 0;
            while (i < positions.length) {
                long gap = positions[i] - next;
                int j = i;
                while (j + 1 < positions.length && positions[j + 1] == positions[j] + 1) {
                    j++;
                }
                long run = j - i + 1;
                int cost = varintLength(gap) + varintLength(run);
                if (out.size() + cost > budget) {
                    // Fit part of the run in what is left, if the gap itself fits.
                    int left = budget - out.size() - varintLength(gap);
                    if (left > 0) {
                        long partial = Math.min(run, maxVarint(left));
                        writeVarint(out, gap);
                        writeVarint(out, partial);
                        count += (int) partial;
                    }
                    break;
                }
                writeVarint(out, gap);
                writeVarint(out, run);
                count += (int) run;
                next = positions[j] + 1;
                i = j + 1;
            }
            return new RunLength(out.toByteArray(), count);
        }
    }

    /** Bitmap payload of the longest prefix of {@code positions} that fits in {@code budget} bytes. */
    private record Bitmap(byte[] payload, int count) {
        static Bitmap of(long[] positions, int budget) {
            long maxSpan = (long) budget * 8;
            List<Long> included = new ArrayList<>();
            for (long p : positions) {
                if (p >= maxSpan) {
                    break;
                }
                included.add(p);
            }
            if (included.isEmpty()) {
                return new Bitmap(new byte[0], 0);
            }
            long span = included.getLast() + 1;
            byte[] bits = new byte[(int) ((span + 7) / 8)];
            for (long p : included) {
                bits[(int) (p / 8)] |= (byte) (1 << (p % 8));
            }
            return new Bitmap(bits, included.size());
        }
    }

    static int varintLength(long value) {
        int length = 1;
        while ((value >>>= 7) != 0) {
            length++;
        }
        return length;
    }

    private static long maxVarint(int bytes) {
        return bytes >= 9 ? Long.MAX_VALUE : (1L << (7 * bytes)) - 1;
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static long readVarint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint too long");
    }
}
