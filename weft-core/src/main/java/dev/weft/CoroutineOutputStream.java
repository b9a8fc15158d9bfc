package dev.weft;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.reflect.Method;
import javax.crypto.SecretKey;

/**
 * An object stream that writes a suspended coroutine as its {@linkplain CoroutineBase#serialize()
 * frames} (thesis 5.2): each frame's {@link Method} is written as a reference by name and code
 * fingerprint, and the coroutine's references to itself as a placeholder that
 * {@link CoroutineInputStream} replaces by the coroutine it restores into. Everything else the
 * frames reference is written by Java serialization, so it must be serializable, or replaced by
 * a subclass's {@link #replaceObject}.
 *
 * <pre>{@code
 * try (var out = new CoroutineOutputStream<String, String>(Files.newOutputStream(file), key)) {
 *     out.writeAsymCoroutine(session);
 * }
 * }</pre>
 *
 * <h2>Sealing</h2>
 * Given a {@link SecretKey}, the stream is sealed: everything written is kept in memory and,
 * when the stream is {@linkplain #close() closed}, written out at once with an HMAC-SHA256 of
 * all of it (the layout is in {@code Seal}); nothing reaches the underlying stream before that.
 * A reader given the same key checks the seal before it reads a single object, so a changed
 * byte is refused, never resumed. Without a key the stream is the plain object stream.
 *
 * <p>Not thread-safe, like {@link ObjectOutputStream}; the coroutine must belong to the writing thread.
 *
 * @param <I> the input type of the asymmetric coroutines it writes
 * @param <O> their output type
 */
@SuppressWarnings("this-escape") // enabling replacement in the constructor is how object streams are meant to be extended
public class CoroutineOutputStream<I, O> extends ObjectOutputStream {

    /** What a coroutine's references to itself are written as. */
    static final class SelfReference implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private CoroutineBase writing;
    /** Where a sealed stream goes when closed; null for an unsealed one. */
    private final OutputStream sealedTarget;
    private final Seal.Buffer buffer;
    private final SecretKey key;
    private boolean closed;

    /** An unsealed stream onto {@code out}. */
    public CoroutineOutputStream(OutputStream out) throws IOException {
        super(out);
        this.sealedTarget = null;
        this.buffer = null;
        this.key = null;
        enableReplaceObject(true);
    }

    /**
     * A stream sealed with {@code key} (any {@link SecretKey} that HMAC-SHA256 accepts, such as
     * {@code new SecretKeySpec(32 random bytes, "HmacSHA256")}): written to {@code out} when closed.
     */
    public CoroutineOutputStream(OutputStream out, SecretKey key) throws IOException {
        this(new Seal.Buffer(), out, key);
    }

    private CoroutineOutputStream(Seal.Buffer buffer, OutputStream out, SecretKey key) throws IOException {
        super(buffer);
        if (out == null || key == null) {
            throw new NullPointerException(out == null ? "out" : "key");
        }
        this.sealedTarget = out;
        this.buffer = buffer;
        this.key = key;
        enableReplaceObject(true);
    }

    /**
     * Closes the stream; a sealed one is first written to the underlying stream, sealed, and
     * that stream is closed.
     */
    @Override
    public void close() throws IOException {
        if (sealedTarget == null || closed) {
            super.close();
            return;
        }
        closed = true;
        super.close(); // flushes the object stream into the buffer
        try (OutputStream out = sealedTarget) {
            Seal.write(out, buffer.bytes(), buffer.length(), key);
        }
    }

    /** Writes {@code coroutine}'s frames; it stays as it was, and may be resumed. */
    public void writeAsymCoroutine(AsymCoroutine<I, O> coroutine) throws IOException {
        write(coroutine);
    }

    /** Writes a symmetric {@code coroutine}'s frames; it stays as it was, and may be resumed. */
    public void writeCoroutine(Coroutine coroutine) throws IOException {
        write(coroutine);
    }

    /**
     * Writes {@code coroutine}'s frames, once every value they hold directly is known to be
     * serializable (after {@link #replaceObject}): otherwise nothing of it is written, and the
     * {@link NotSerializableException} names the frame, the slot and the class.
     */
    private void write(CoroutineBase coroutine) throws IOException {
        CoroutineFrame[] frames = coroutine.serialize();
        checkSerializable(coroutine, frames);
        writing = coroutine;
        try {
            writeObject(frames);
        } finally {
            writing = null;
        }
    }

    private void checkSerializable(CoroutineBase coroutine, CoroutineFrame[] frames) throws IOException {
        for (int i = 0; i < frames.length; i++) {
            CoroutineFrame frame = frames[i];
            for (int slot = 0; slot < frame.objectValues.length; slot++) {
                Object value = frame.objectValues[slot];
                Object written = value == null || value == coroutine ? null : replaceObject(value);
                if (written != null && !(written instanceof Serializable)) {
                    throw new NotSerializableException("cannot write " + coroutine + ": frame " + i + " ("
                            + frame.method.getDeclaringClass().getName() + "." + frame.method.getName() + ", bci "
                            + frame.bci + ") " + (slot < frame.localCount ? "local " : "stack ") + "slot " + slot
                            + " holds a " + written.getClass().getName() + ", which is not Serializable;"
                            + " nothing of the coroutine was written, and it goes on as it was");
                }
            }
        }
    }

    @Override
    protected Object replaceObject(Object obj) throws IOException {
        if (obj instanceof Method method) {
            return MethodReference.of(method);
        }
        if (obj != null && obj == writing) {
            return new SelfReference();
        }
        return super.replaceObject(obj);
    }
}
