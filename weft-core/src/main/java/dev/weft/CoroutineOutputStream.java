package dev.weft;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.reflect.Method;

/**
 * An object stream that writes a suspended coroutine as its {@linkplain CoroutineBase#serialize()
 * frames} (thesis 5.2): each frame's {@link Method} is written as a reference by name and code
 * fingerprint, and the coroutine's references to itself as a placeholder that
 * {@link CoroutineInputStream} replaces by the coroutine it restores into. Everything else the
 * frames reference is written by Java serialization, so it must be serializable, or replaced by
 * a subclass's {@link #replaceObject}.
 *
 * <pre>{@code
 * try (var out = new CoroutineOutputStream<String, String>(Files.newOutputStream(file))) {
 *     out.writeAsymCoroutine(session);
 * }
 * }</pre>
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

    public CoroutineOutputStream(OutputStream out) throws IOException {
        super(out);
        enableReplaceObject(true);
    }

    /** Writes {@code coroutine}'s frames; it stays as it was, and may be resumed. */
    public void writeAsymCoroutine(AsymCoroutine<I, O> coroutine) throws IOException {
        write(coroutine);
    }

    /** Writes a symmetric {@code coroutine}'s frames; it stays as it was, and may be resumed. */
    public void writeCoroutine(Coroutine coroutine) throws IOException {
        write(coroutine);
    }

    private void write(CoroutineBase coroutine) throws IOException {
        CoroutineFrame[] frames = coroutine.serialize();
        writing = coroutine;
        try {
            writeObject(frames);
        } finally {
            writing = null;
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
