package dev.weft.sessions;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.CoroutineOutputStream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

/**
 * A session's bytes: its coroutine through Weft's coroutine streams, and its outputs and point
 * values as stored values, below. The coroutine stream is written unsealed: with a key, the
 * {@link RowSeal} covers it with the rest of the row, and is checked before it is read.
 * Any thread; each call uses the calling thread's coroutines.
 *
 * <p>A stored value is one of two forms, told apart by its first byte:
 * <pre>
 *   Java serialization  0xAC 0xED ...    one writeObject: any serializable value, and every value
 *                                        stored before the compact form existed
 *   compact             'V' kind value   a String, or a boxed primitive, written directly:
 *       kind 1  String     its UTF-8 bytes, to the end (a string with a lone surrogate, which
 *                          UTF-8 cannot carry, is stored by Java serialization)
 *       kind 2  Integer    4 bytes          kind 6  Character  2 bytes
 *       kind 3  Long       8 bytes          kind 7  Boolean    1 byte, 0 or 1
 *       kind 4  Short      2 bytes          kind 8  Float      4 bytes (raw bits)
 *       kind 5  Byte       1 byte           kind 9  Double     8 bytes (raw bits)
 * </pre>
 * Numbers are big-endian. A compact value whose length is not its kind's, whose kind is none of
 * these, or whose string is not well-formed UTF-8 is refused with
 * {@link java.io.StreamCorruptedException}. A step's output is nearly always such a value, and
 * the compact form spares a step an {@link ObjectOutputStream} and its reader an
 * {@link ObjectInputStream}.
 */
final class StateCodec {

    /** The first byte of a compact stored value. */
    static final byte COMPACT = 'V';
    static final int KIND_STRING = 1;
    static final int KIND_INTEGER = 2;
    static final int KIND_LONG = 3;
    static final int KIND_SHORT = 4;
    static final int KIND_BYTE = 5;
    static final int KIND_CHARACTER = 6;
    static final int KIND_BOOLEAN = 7;
    static final int KIND_FLOAT = 8;
    static final int KIND_DOUBLE = 9;

    private final ClassLoader loader;
    /** The manifests of the sets of methods seen so far: a node's code has few. */
    private final Map<Set<Method>, Builds.Manifest> manifests = new ConcurrentHashMap<>();

    StateCodec(ClassLoader loader) {
        this.loader = loader;
    }

    /** A suspended coroutine as bytes, and the manifest of the methods of its frames. */
    record Written(byte[] state, Builds.Manifest manifest) {
    }

    /** Writes {@code coroutine}, capturing its frames once: the stream shows them on their way out. */
    <I, O> Written write(AsymCoroutine<I, O> coroutine) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        Set<Method> methods = new HashSet<>();
        try (CoroutineOutputStream<I, O> out = new MethodsSeen<>(methods, bytes)) {
            out.writeAsymCoroutine(coroutine);
        }
        return new Written(bytes.toByteArray(), manifests.computeIfAbsent(methods, Builds::of));
    }

    /**
     * Reads {@code state} into {@code target}: frames of changed code matched to the new code by
     * {@code formerSites} (their build's verdict, {@link Builds.Verdict#formerSites}), unless it
     * is null.
     */
    <I, O> AsymCoroutine<I, O> read(byte[] state, AsymCoroutine<I, O> target,
            CoroutineInputStream.FormerSites formerSites) throws IOException {
        try (CoroutineInputStream<I, O> in = reader(state, formerSites)) {
            return in.readAsymCoroutine(target);
        }
    }

    /**
     * The frames of {@code state}, read as {@link #read} reads them but restored into no
     * coroutine: references to the session's coroutine resolve to {@code standIn}.
     */
    CoroutineFrame[] frames(byte[] state, AsymCoroutine<?, ?> standIn, CoroutineInputStream.FormerSites formerSites)
            throws IOException {
        try (CoroutineInputStream<Object, Object> in = reader(state, formerSites)) {
            return in.readFrames(standIn);
        }
    }

    private <I, O> CoroutineInputStream<I, O> reader(byte[] state, CoroutineInputStream.FormerSites formerSites)
            throws IOException {
        CoroutineInputStream<I, O> in = new CoroutineInputStream<>(new ByteArrayInputStream(state), loader);
        return formerSites == null ? in : in.acceptChangedCode(formerSites);
    }

    /** A coroutine stream that notes the methods of the frames it writes. */
    private static final class MethodsSeen<I, O> extends CoroutineOutputStream<I, O> {
        private final Set<Method> methods;

        MethodsSeen(Set<Method> methods, OutputStream out) throws IOException {
            super(out);
            this.methods = methods;
        }

        @Override
        protected void writingFrames(CoroutineBase coroutine, CoroutineFrame[] frames) {
            for (CoroutineFrame frame : frames) {
                methods.add(frame.method);
            }
        }
    }

    /**
     * A value as stored: compact if it is a string or a boxed primitive, else by Java
     * serialization; null for null or for a value that is not serializable.
     */
    static byte[] value(Object value) {
        if (value == null) {
            return null;
        }
        byte[] compact = compact(value);
        if (compact != null) {
            return compact;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            return null;
        }
        return bytes.toByteArray();
    }

    /** {@code value} in the compact form, or null if it has none. */
    private static byte[] compact(Object value) {
        Class<?> type = value.getClass();
        if (type == String.class) {
            String text = (String) value;
            return hasLoneSurrogate(text) ? null : withHead(KIND_STRING, text.getBytes(StandardCharsets.UTF_8));
        } else if (type == Integer.class) {
            return withHead(KIND_INTEGER, ByteBuffer.allocate(4).putInt((Integer) value).array());
        } else if (type == Long.class) {
            return withHead(KIND_LONG, ByteBuffer.allocate(8).putLong((Long) value).array());
        } else if (type == Short.class) {
            return withHead(KIND_SHORT, ByteBuffer.allocate(2).putShort((Short) value).array());
        } else if (type == Byte.class) {
            return withHead(KIND_BYTE, new byte[] {(Byte) value});
        } else if (type == Character.class) {
            return withHead(KIND_CHARACTER, ByteBuffer.allocate(2).putChar((Character) value).array());
        } else if (type == Boolean.class) {
            return withHead(KIND_BOOLEAN, new byte[] {(byte) ((Boolean) value ? 1 : 0)});
        } else if (type == Float.class) {
            return withHead(KIND_FLOAT, ByteBuffer.allocate(4).putInt(Float.floatToRawIntBits((Float) value)).array());
        } else if (type == Double.class) {
            return withHead(KIND_DOUBLE, ByteBuffer.allocate(8).putLong(Double.doubleToRawLongBits((Double) value))
                    .array());
        }
        return null;
    }

    /** Whether {@code text} has a surrogate that is not half of a pair: UTF-8 cannot carry it. */
    private static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] withHead(int kind, byte[] body) {
        byte[] bytes = new byte[body.length + 2];
        bytes[0] = COMPACT;
        bytes[1] = (byte) kind;
        System.arraycopy(body, 0, bytes, 2, body.length);
        return bytes;
    }

    /** A compact stored value, {@code bytes[0]} being {@link #COMPACT}: checked to be one of its kinds, whole. */
    private static Object readCompact(byte[] bytes) throws IOException {
        if (bytes.length < 2) {
            throw new StreamCorruptedException("a compact stored value of " + bytes.length + " byte(s) has no kind");
        }
        int kind = bytes[1];
        ByteBuffer value = ByteBuffer.wrap(bytes, 2, bytes.length - 2);
        int length = value.remaining();
        int expected = switch (kind) {
            case KIND_STRING -> length;
            case KIND_BYTE, KIND_BOOLEAN -> 1;
            case KIND_SHORT, KIND_CHARACTER -> 2;
            case KIND_INTEGER, KIND_FLOAT -> 4;
            case KIND_LONG, KIND_DOUBLE -> 8;
            default -> throw new StreamCorruptedException("a compact stored value has kind " + kind
                    + ", which no value has");
        };
        if (length != expected) {
            throw new StreamCorruptedException("a compact stored value of kind " + kind + " has " + length
                    + " byte(s), not " + expected);
        }
        return switch (kind) {
            case KIND_STRING -> StandardCharsets.UTF_8.newDecoder().decode(value).toString();
            case KIND_INTEGER -> value.getInt();
            case KIND_LONG -> value.getLong();
            case KIND_SHORT -> value.getShort();
            case KIND_BYTE -> value.get();
            case KIND_CHARACTER -> value.getChar();
            case KIND_BOOLEAN -> bool(value.get());
            case KIND_FLOAT -> Float.intBitsToFloat(value.getInt());
            default -> Double.longBitsToDouble(value.getLong());
        };
    }

    private static Boolean bool(byte value) throws StreamCorruptedException {
        if (value != 0 && value != 1) {
            throw new StreamCorruptedException("a compact stored Boolean holds " + value + ", not 0 or 1");
        }
        return value == 1;
    }

    /**
     * A value written by {@link #value(Object)} (an output), its classes resolved by this codec's
     * loader, read under {@link #storedValueLimits}: the bytes come from the store, and may have
     * been changed there.
     */
    Object readValue(byte[] bytes) throws IOException {
        return readValue(bytes, false);
    }

    /**
     * The limits under which a stored value is read, with {@code jdkOnly}: whether every class
     * must be the JDK's ({@link PlainValues}, as a point's values are). What the limits allow is
     * far beyond any value a step returns: a graph nested 100 deep, 100,000 references, arrays
     * of a million elements, and no more bytes than are stored; past them the read is refused
     * with {@link java.io.InvalidClassException} instead of exhausting the stack, the heap or
     * the time of the node that reads it.
     */
    private static ObjectInputFilter storedValueLimits(long storedBytes, boolean jdkOnly) {
        return info -> {
            if (info.depth() > 100 || info.references() > 100_000 || info.arrayLength() > 1_000_000
                    || info.streamBytes() > storedBytes) {
                return ObjectInputFilter.Status.REJECTED;
            }
            Class<?> type = info.serialClass();
            if (jdkOnly && type != null && !PlainValues.isJdk(type)) {
                return ObjectInputFilter.Status.REJECTED;
            }
            return ObjectInputFilter.Status.UNDECIDED;
        };
    }

    private Object readValue(byte[] bytes, boolean jdkOnly) throws IOException {
        if (bytes == null) {
            return null;
        }
        if (bytes.length > 0 && bytes[0] == COMPACT) {
            return readCompact(bytes);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(java.io.ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    return super.resolveClass(desc);
                }
            }
        }) {
            in.setObjectInputFilter(storedValueLimits(bytes.length, jdkOnly));
            return in.readObject();
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot read a stored value: " + e, e);
        }
    }

    /** A point's values as {@link StepContext#suspendingAt} stored them: a map of JDK values only. */
    @SuppressWarnings("unchecked")
    Map<String, Object> readPointValues(byte[] bytes) throws IOException {
        Object values = readValue(bytes, true);
        if (values == null) {
            return Map.of();
        }
        if (!(values instanceof Map<?, ?> map) || !map.keySet().stream().allMatch(String.class::isInstance)) {
            throw new java.io.InvalidObjectException("a point's stored values are a " + values.getClass().getName()
                    + ", not a map of names to values");
        }
        return (Map<String, Object>) values;
    }
}
