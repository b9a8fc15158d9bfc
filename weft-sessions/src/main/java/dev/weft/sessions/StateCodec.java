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
import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

/**
 * A session's bytes: its coroutine through Weft's coroutine streams, and its outputs and point
 * values through plain Java serialization. The coroutine stream is written unsealed: with a key,
 * the {@link RowSeal} covers it with the rest of the row, and is checked before it is read.
 * Any thread; each call uses the calling thread's coroutines.
 */
final class StateCodec {

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

    <I, O> AsymCoroutine<I, O> read(byte[] state, AsymCoroutine<I, O> target) throws IOException {
        try (CoroutineInputStream<I, O> in = new CoroutineInputStream<>(new ByteArrayInputStream(state), loader)) {
            return in.readAsymCoroutine(target);
        }
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

    /** A value by Java serialization; null for null or for a value that is not serializable. */
    static byte[] value(Object value) {
        if (value == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            return null;
        }
        return bytes.toByteArray();
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
