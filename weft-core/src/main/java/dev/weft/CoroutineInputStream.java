package dev.weft;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.StreamCorruptedException;

/**
 * An object stream that reads a coroutine written by {@link CoroutineOutputStream} and
 * {@linkplain CoroutineBase#deserialize deserializes} it into a new coroutine (thesis 5.2). Method
 * references are resolved and checked against the woven code here: a method that no longer
 * exists, is not woven, or changed since it was written is refused, as are frames that do not
 * fit their methods (see {@code deserialize}).
 *
 * <pre>{@code
 * try (var in = new CoroutineInputStream<String, String>(Files.newInputStream(file))) {
 *     AsymCoroutine<String, String> session = in.readAsymCoroutine();
 *     session.call(answer);
 * }
 * }</pre>
 *
 * <p>Bytes that are not a coroutine (truncated, corrupted, or something else) are refused with a
 * {@link StreamCorruptedException}; frames that do not fit their methods with an
 * {@link InvalidObjectException}. Java serialization runs whatever classes the bytes name: read
 * only bytes you wrote, or set an {@link java.io.ObjectInputFilter}.
 *
 * <p>Not thread-safe, like {@link ObjectInputStream}; the coroutine it returns belongs to the reading thread.
 *
 * @param <I> the input type of the asymmetric coroutines it reads
 * @param <O> their output type
 */
@SuppressWarnings("this-escape") // enabling replacement in the constructor is how object streams are meant to be extended
public class CoroutineInputStream<I, O> extends ObjectInputStream {

    private final ClassLoader loader;
    private CoroutineBase reading;

    /** A stream that resolves classes as {@link ObjectInputStream} does. */
    public CoroutineInputStream(InputStream in) throws IOException {
        this(in, null);
    }

    /** A stream that resolves the classes it reads with {@code loader} (null: as {@link ObjectInputStream} does). */
    public CoroutineInputStream(InputStream in, ClassLoader loader) throws IOException {
        super(in);
        this.loader = loader;
        enableResolveObject(true);
    }

    /** Reads a coroutine into a new {@link AsymCoroutine}, which belongs to the current thread. */
    public AsymCoroutine<I, O> readAsymCoroutine() throws IOException {
        return readAsymCoroutine(new AsymCoroutine<>());
    }

    /** Reads a coroutine into {@code target}, replacing its stack; returns it. */
    public AsymCoroutine<I, O> readAsymCoroutine(AsymCoroutine<I, O> target) throws IOException {
        read(target);
        return target;
    }

    /** Reads a symmetric coroutine into a new {@link Coroutine}, next in the current thread's ring. */
    public Coroutine readCoroutine() throws IOException {
        Coroutine target = new Coroutine();
        try {
            read(target);
        } catch (IOException | RuntimeException | Error e) {
            target.close(); // still new: leaves the ring without running
            throw e;
        }
        return target;
    }

    private void read(CoroutineBase target) throws IOException {
        reading = target;
        Object frames;
        try {
            frames = readObject();
        } catch (InvalidObjectException e) {
            throw e;
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            StreamCorruptedException corrupt = new StreamCorruptedException("cannot read a coroutine: " + e);
            corrupt.initCause(e);
            throw corrupt;
        } finally {
            reading = null;
        }
        if (!(frames instanceof CoroutineFrame[] array)) {
            throw new StreamCorruptedException("cannot read a coroutine: the stream holds a "
                    + (frames == null ? "null" : frames.getClass().getName()) + ", not frames");
        }
        try {
            target.deserialize(array);
        } catch (IllegalArgumentException e) {
            InvalidObjectException invalid = new InvalidObjectException(e.getMessage());
            invalid.initCause(e);
            throw invalid;
        }
    }

    @Override
    protected Object resolveObject(Object obj) throws IOException {
        if (obj instanceof MethodReference reference) {
            return reference.resolve(loader != null ? loader : Thread.currentThread().getContextClassLoader());
        }
        if (obj instanceof CoroutineOutputStream.SelfReference) {
            if (reading == null) {
                throw new InvalidObjectException("a coroutine's reference to itself outside of its frames");
            }
            return reading;
        }
        return super.resolveObject(obj);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        if (loader != null) {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                // primitives and the like: as the default does
            }
        }
        return super.resolveClass(desc);
    }
}
