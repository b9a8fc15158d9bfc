package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectOutputStream;
import java.io.StreamCorruptedException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Weft's own stream format, on either engine: every kind of slot and value comes back as it
 * was written, shared objects stay shared, several coroutines share a stream; and each way a
 * record can be wrong (truncated, wrong magic, another format version, another build, a
 * fingerprint that does not match its table, counts beyond the record or the limits, varints
 * too long, bytes after the objects, an old Java object stream) is refused with the exception
 * type {@link CoroutineInputStream} documents and a message naming what was wrong, leaving the
 * writer's coroutine as it was.
 */
class StreamFormatTest {

    /**
     * Holds a primitive of every kind, changed at each step, and the last two objects it was
     * given; passes them all out.
     */
    static final class Slots extends AsymCoroutine<Object, Object> {
        Slots(Engine engine) {
            super(engine);
        }

        @Override
        protected Object run(Object first) {
            int i = -7;
            long l = Long.MIN_VALUE + 3;
            double d = Math.PI;
            float f = -0.5f;
            boolean b = true;
            char c = '\uFFFE';
            byte y = -128;
            short s = Short.MAX_VALUE;
            Object held = first;
            Object previous = null;
            while (true) {
                Object in = ret(Arrays.asList(i, l, d, f, b, c, y, s, held, previous));
                previous = held;
                if (in != null) {
                    held = in;
                }
                i = i * 3 + 1;
                l = l / 2 - 1;
                d = -d * 1.5;
                f = f * 2;
                b = !b;
                c++;
                y++;
                s--;
            }
        }
    }

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    private static Slots slots(Engine engine, Object... inputs) {
        Slots co = new Slots(engine);
        for (Object input : inputs) {
            co.call(input);
        }
        return co;
    }

    @SafeVarargs
    private static byte[] write(AsymCoroutine<Object, Object>... coroutines) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Object, Object> out = new CoroutineOutputStream<>(bytes)) {
            for (AsymCoroutine<Object, Object> co : coroutines) {
                out.writeAsymCoroutine(co);
            }
        }
        return bytes.toByteArray();
    }

    private static Slots read(byte[] bytes, Engine engine) throws IOException {
        return read(bytes, engine, UnaryOperator.identity());
    }

    private static Slots read(byte[] bytes, Engine engine, UnaryOperator<CoroutineInputStream<Object, Object>> setUp)
            throws IOException {
        try (CoroutineInputStream<Object, Object> in = setUp.apply(new CoroutineInputStream<>(new ByteArrayInputStream(bytes)))) {
            return (Slots) in.readAsymCoroutine(new Slots(engine));
        }
    }

    // ------------------------------------------------------------ what goes through

    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyKindOfSlotAndEveryDirectValueComesBackAsItWas(Engine engine) throws IOException {
        List<Object> values = List.of("text", "an emoji \uD83D\uDE00 and a lone \uD800 surrogate", "", 42, -1L,
                Long.MAX_VALUE, (short) -3, (byte) -1, '\u00e9', true, false, 1.5f, -0.0d, Double.NaN,
                new BigInteger("123456789012345678901234567890"));
        for (Object value : values) {
            Slots original = slots(engine, 1, value, null);
            Slots copy = read(write(original), engine);
            Object expected = original.call(null);
            assertEquals(expected, copy.call(null), "holding " + value);
            assertEquals(original.call("next"), copy.call("next"), "holding " + value + ", a step later");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSubclassSeesTheFramesItWritesAndCanStopTheWrite(Engine engine) throws IOException {
        Slots original = slots(engine, 1, "held");
        List<CoroutineFrame[]> seen = new ArrayList<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Object, Object> out = new CoroutineOutputStream<>(bytes) {
            @Override
            protected void writingFrames(CoroutineBase coroutine, CoroutineFrame[] frames) throws IOException {
                assertSame(original, coroutine);
                seen.add(frames);
                if (seen.size() == 2) {
                    throw new IOException("the second write is refused by the subclass");
                }
            }
        }) {
            out.writeAsymCoroutine(original);
            int written = bytes.size();
            IOException refused = assertThrows(IOException.class, () -> out.writeAsymCoroutine(original));
            assertEquals("the second write is refused by the subclass", refused.getMessage());
            out.flush();
            assertEquals(written, bytes.size(), "nothing of the refused write reached the stream");
        }
        assertEquals(2, seen.size());
        CoroutineFrame[] frames = original.serialize();
        assertEquals(frames.length, seen.get(0).length);
        for (int i = 0; i < frames.length; i++) {
            assertEquals(frames[i].method, seen.get(0)[i].method, "frame " + i);
            assertEquals(frames[i].bci, seen.get(0)[i].bci, "frame " + i);
        }
        Object expected = original.call(null);
        try (CoroutineInputStream<Object, Object> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(expected, in.readAsymCoroutine(new Slots(engine)).call(null), "the first write reads back");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anObjectInTwoSlotsStaysOneObjectAndTheCoroutineInsideAnObjectIsTheCopy(Engine engine) throws IOException {
        List<Object> list = new ArrayList<>();
        Slots original = slots(engine, 1, list);
        list.add(original);
        original.call(null); // now held and previous are both the list
        Slots copy = read(write(original), engine);
        List<?> out = (List<?>) copy.call(null);
        assertSame(out.get(8), out.get(9), "one list in two slots");
        assertSame(copy, ((List<?>) out.get(8)).get(0), "the coroutine inside the list is the copy");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMethodInASlotIsWrittenByReferenceAndReadBackOnlyIfItIsWovenCode(Engine engine) throws Exception {
        java.lang.reflect.Method woven = Slots.class.getDeclaredMethod("run", Object.class);
        Slots copy = read(write(slots(engine, 1, new ArrayList<>(List.of(woven)))), engine);
        assertEquals(woven, ((List<?>) ((List<?>) copy.call(null)).get(8)).get(0), "the same method, resolved by name");
        java.lang.reflect.Method jdk = String.class.getMethod("strip");
        byte[] bytes = write(slots(engine, 1, jdk));
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> read(bytes, engine));
        assertTrue(e.getMessage().contains("java.lang.String.strip()Ljava/lang/String;: the stream gives no fingerprint"),
                e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void twoCoroutinesInOneStreamAreReadInTurnAndThenTheEndIsNamed(Engine engine) throws IOException {
        Slots first = slots(engine, 1, "first");
        Slots second = slots(engine, 1, "second", null);
        byte[] bytes = write(first, second);
        try (CoroutineInputStream<Object, Object> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes))) {
            AsymCoroutine<Object, Object> a = in.readAsymCoroutine(new Slots(engine));
            AsymCoroutine<Object, Object> b = in.readAsymCoroutine(new Slots(engine));
            assertEquals(first.call(null), a.call(null));
            assertEquals(second.call(null), b.call(null));
            StreamCorruptedException e = assertThrows(StreamCorruptedException.class,
                    () -> in.readAsymCoroutine(new Slots(engine)));
            assertTrue(e.getMessage().contains("holds no (further) coroutine"), e.getMessage());
        }
    }

    // ------------------------------------------------------------ what is refused

    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyTruncationIsRefusedAsSuch(Engine engine) throws IOException {
        Slots co = slots(engine, 1, "held");
        byte[] bytes = write(co);
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(truncated, engine),
                    "cut at " + length);
            assertTrue(e.getMessage().startsWith("cannot read a coroutine: ") && (e.getMessage().contains("truncated")
                    || e.getMessage().contains("the stream ends after")), e.getMessage());
        }
        assertEquals(slots(engine, 1, "held").call(null), co.call(null), "the writer goes on");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWrongMagicIsRefused(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1));
        bytes[2] ^= 0x20;
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(bytes, engine));
        assertTrue(e.getMessage().contains("is not a coroutine stream (it starts with 0x57466346"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anotherFormatVersionIsRefused(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1));
        bytes[4] = 9;
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(bytes, engine));
        assertTrue(e.getMessage().contains("the record is in format version 9, and this Weft reads versions 1 and 2"),
                e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void framesOfCodeWovenInAnotherFormatAreRefusedAsAnotherBuild(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1));
        int woven = bodyStart(bytes);
        int other = bytes[woven] + 1;
        bytes[woven] = (byte) other;
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> read(bytes, engine));
        assertTrue(e.getMessage().contains("in the frames of woven format " + other
                + ", and this Weft's frames are those of format " + (other - 1)),
                e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aBuildFingerprintThatDoesNotMatchTheMethodTableIsRefused(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1));
        bytes[bodyStart(bytes) + 1 + 7] ^= 1;
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(bytes, engine));
        assertTrue(e.getMessage().contains("the method table does not match the build fingerprint"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void countsBeyondWhatTheRecordHoldsAreRefused(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1));
        int at = methodCountAt(bytes) - bodyStart(bytes);
        byte[] tooMany = withBody(bytes, body -> splice(body, at, new byte[] {(byte) 0xFF, 0x7F}));
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(tooMany, engine));
        assertTrue(e.getMessage().contains("the method count is 16383, more than the"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void countsAndLengthsBeyondTheReadersLimitsAreRefusedAsLimits(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1));
        InvalidClassException count = assertThrows(InvalidClassException.class,
                () -> read(bytes, engine, in -> in.limit(256, 0, 1 << 20, 1 << 20)));
        assertTrue(count.getMessage().matches(".*the method count is \\d+, more than the limit of 0 \\(raise it with limit.*"),
                count.getMessage());
        InvalidClassException length = assertThrows(InvalidClassException.class,
                () -> read(bytes, engine, in -> in.limit(256, 1 << 20, 1 << 20, 16)));
        assertTrue(length.getMessage().matches(".*the record is \\d+ bytes long, more than the limit of 16 .*"),
                length.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void hugeVarintsAreRefused(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1));
        int at = methodCountAt(bytes) - bodyStart(bytes);
        byte[] tooLong = withBody(bytes, body -> splice(body, at, new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1}));
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(tooLong, engine));
        assertTrue(e.getMessage().contains("the method count is a varint of more than 10 bytes"), e.getMessage());
        byte[] beyondInt = withBody(bytes, body -> splice(body, at, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, 0x7F}));
        StreamCorruptedException big = assertThrows(StreamCorruptedException.class, () -> read(beyondInt, engine));
        assertTrue(big.getMessage().contains("the method count is 34359738367, beyond the int it must be"),
                big.getMessage());
        byte[] hugeLength = Arrays.copyOf(bytes, 10);
        for (int i = 5; i < 10; i++) {
            hugeLength[i] = (byte) 0xFF;
        }
        StreamCorruptedException length = assertThrows(StreamCorruptedException.class, () -> read(hugeLength, engine));
        assertTrue(length.getMessage().contains("the record's length is a varint of more than 5 bytes"),
                length.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void bytesAfterTheObjectsWithinTheRecordAreRefused(Engine engine) throws IOException {
        byte[] bytes = write(slots(engine, 1, "held"));
        byte[] longer = withBody(bytes, body -> Arrays.copyOf(body, body.length + 1));
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(longer, engine));
        assertTrue(e.getMessage().contains("1 byte(s) follow the serialized objects within the record"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aJavaObjectStreamAsWeftWroteBeforeIsRefusedAsSuch(Engine engine) throws IOException {
        Slots co = slots(engine, 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(List.of(1, 2)));
        }
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(bytes.toByteArray(), engine));
        assertTrue(e.getMessage().contains("the stream is a Java object stream (it starts with 0xACED), as Weft wrote"
                + " coroutines before its own format: such streams are no longer read"), e.getMessage());
        assertFalse(co.isFinished());
    }

    // ------------------------------------------------------------ the layout, as FrameCodec documents it

    /** Where the record's body starts: after the magic, the version and the length varint. */
    private static int bodyStart(byte[] record) {
        int at = 5;
        while ((record[at] & 0x80) != 0) {
            at++;
        }
        return at + 1;
    }

    /** Where the method count is: after the woven format (one byte) and the build fingerprint. */
    private static int methodCountAt(byte[] record) {
        return bodyStart(record) + 1 + 8;
    }

    /** The record with its body edited and its length written again. */
    private static byte[] withBody(byte[] record, UnaryOperator<byte[]> edit) {
        byte[] body = edit.apply(Arrays.copyOfRange(record, bodyStart(record), record.length));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(record, 0, 5);
        long length = body.length;
        while (length >= 0x80) {
            out.write((int) (length & 0x7F | 0x80));
            length >>>= 7;
        }
        out.write((int) length);
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    /** {@code bytes} with the byte at {@code at} replaced by {@code replacement}. */
    private static byte[] splice(byte[] bytes, int at, byte[] replacement) {
        byte[] out = new byte[bytes.length - 1 + replacement.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(replacement, 0, out, at, replacement.length);
        System.arraycopy(bytes, at + 1, out, at + replacement.length, bytes.length - at - 1);
        return out;
    }
}
