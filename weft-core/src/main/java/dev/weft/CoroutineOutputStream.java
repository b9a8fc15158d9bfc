package dev.weft;

import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.WovenMethods;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.reflect.Method;
import javax.crypto.SecretKey;

/**
 * A stream that writes suspended coroutines as their {@linkplain CoroutineBase#serialize()
 * frames} (thesis 5.2), in Weft's own compact format (its layout is documented in one place:
 * {@code FrameCodec}, in this package's sources): each frame's {@link Method} as a reference by
 * class, name, descriptor and code fingerprint, written once per stream record however many
 * frames share it; sites, counts and primitive slots directly; the coroutine's references to
 * itself as a placeholder that {@link CoroutineInputStream} replaces by the coroutine it
 * restores into; strings and boxed primitives in the slots directly; every other object in
 * the slots by Java serialization, so it must be serializable, or replaced by a subclass's
 * {@link #replaceObject} (a {@code Method} in a slot is written as a reference, as a frame's is,
 * and read back only if it is woven code with the same fingerprint).
 *
 * <pre>{@code
 * try (var out = new CoroutineOutputStream<String, String>(Files.newOutputStream(file), key)) {
 *     out.writeAsymCoroutine(session);
 * }
 * }</pre>
 *
 * <p>This is not an {@link ObjectOutputStream} (it was one before Weft had a format of its own;
 * streams written then are refused by the reader, and there were no users to migrate): it
 * writes coroutines only, each as one self-delimited record.
 *
 * <h2>Sealing</h2>
 * Given a {@link SecretKey}, the stream is sealed: everything written is kept in memory and,
 * when the stream is {@linkplain #close() closed}, written out at once with an HMAC-SHA256 of
 * all of it (the layout is in {@code Seal}); nothing reaches the underlying stream before that.
 * A reader given the same key checks the seal before it reads a single byte of a record, so a
 * changed byte is refused, never resumed. Without a key each record goes to the underlying
 * stream as it is written.
 *
 * <p>Not thread-safe; the coroutine must belong to the writing thread.
 *
 * @param <I> the input type of the asymmetric coroutines it writes
 * @param <O> their output type
 */
public class CoroutineOutputStream<I, O> implements Closeable, Flushable {

    /** What a coroutine's references to itself inside a serialized object are written as. */
    static final class SelfReference implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** Where records go: the underlying stream, or the buffer of a sealed stream. */
    private final OutputStream out;
    /** Where a sealed stream goes when closed; null for an unsealed one. */
    private final OutputStream sealedTarget;
    private final Seal.Buffer buffer;
    private final SecretKey key;
    /** Whether records carry their frames' sites ({@link #recordSites}). */
    private boolean recordSites;
    private boolean closed;

    /**
     * An unsealed stream onto {@code out}.
     *
     * @param out where each coroutine's record goes as it is written
     * @throws IOException never, in this version; kept for the streams' usual signature
     */
    public CoroutineOutputStream(OutputStream out) throws IOException {
        if (out == null) {
            throw new NullPointerException("out");
        }
        this.out = out;
        this.sealedTarget = null;
        this.buffer = null;
        this.key = null;
    }

    /**
     * A stream sealed with {@code key} (any {@link SecretKey} that HMAC-SHA256 accepts, such as
     * {@code new SecretKeySpec(32 random bytes, "HmacSHA256")}): written to {@code out} when closed.
     *
     * @param out where the sealed records go, all at once, when this stream is closed
     * @param key the key to seal them with
     * @throws IOException never, in this version; kept for the streams' usual signature
     */
    public CoroutineOutputStream(OutputStream out, SecretKey key) throws IOException {
        if (out == null || key == null) {
            throw new NullPointerException(out == null ? "out" : "key");
        }
        this.buffer = new Seal.Buffer();
        this.out = buffer;
        this.sealedTarget = out;
        this.key = key;
    }

    /**
     * Makes the coroutines written from now on carry each frame's site as the writer's code has
     * it (the method it calls there, which of its calls of that method it is, its live variables'
     * names and types, its operand stack), so that a reader that
     * {@linkplain CoroutineInputStream#acceptChangedCode accepts changed code} can resume a
     * frame whose method has changed since, where the new code still fits it. Each site costs
     * some bytes per record (once per method and site, however many frames are there).
     *
     * @return this stream
     */
    public CoroutineOutputStream<I, O> recordSites() {
        recordSites = true;
        return this;
    }

    /**
     * Every site of {@code method}'s code as text (letters, digits, {@code -} and {@code _}):
     * what {@link #recordSites()} puts in a record for each frame of the method, for all its
     * sites at once. A store that keeps it once per method and {@linkplain #fingerprintOf
     * fingerprint} can write records without sites and still resume them on changed code
     * ({@link CoroutineInputStream#acceptChangedCode(CoroutineInputStream.FormerSites)}).
     *
     * @param method a method of a woven class
     * @return the text; null if {@code method} is not woven (no frame can be one of its)
     */
    public static String sitesOf(Method method) {
        return FrameCodec.sitesText(method);
    }

    /**
     * The weaver's fingerprint of {@code method}'s code, as a record's method table holds it: a
     * frame is resumed exactly (without {@link CoroutineInputStream#acceptChangedCode()}) only
     * by code of the same fingerprint.
     *
     * @param method a method of a woven class
     * @return the fingerprint; null if {@code method} is not woven
     */
    public static String fingerprintOf(Method method) {
        WovenMethods.WovenMethod woven = WovenMethods.methodOf(method);
        return woven == null ? null : woven.hash();
    }

    /** Flushes the underlying stream; a sealed stream has nothing to flush before it is closed. */
    @Override
    public void flush() throws IOException {
        if (sealedTarget == null) {
            out.flush();
        }
    }

    /**
     * Closes the stream; a sealed one is first written to the underlying stream, sealed, and
     * that stream is closed.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (sealedTarget == null) {
            out.close();
            return;
        }
        try (OutputStream target = sealedTarget) {
            Seal.write(target, buffer.bytes(), buffer.length(), key);
        }
    }

    /**
     * Writes {@code coroutine}'s frames; it stays as it was, and may be resumed.
     *
     * @param coroutine a suspended coroutine of the current thread
     * @throws java.io.NotSerializableException if a frame holds a value that is not serializable
     *                                          (nothing of the coroutine is written)
     * @throws IOException                      if the stream is closed or cannot be written
     */
    public void writeAsymCoroutine(AsymCoroutine<I, O> coroutine) throws IOException {
        write(coroutine);
    }

    /**
     * Writes a symmetric {@code coroutine}'s frames; it stays as it was, and may be resumed.
     *
     * @param coroutine a suspended coroutine of the current thread
     * @throws java.io.NotSerializableException if a frame holds a value that is not serializable
     *                                          (nothing of the coroutine is written)
     * @throws IOException                      if the stream is closed or cannot be written
     */
    public void writeCoroutine(Coroutine coroutine) throws IOException {
        write(coroutine);
    }

    /**
     * Writes {@code coroutine}'s frames, once every value they hold directly is known to be
     * serializable (after {@link #replaceObject}): otherwise nothing of it is written, and the
     * {@link NotSerializableException} names the frame, the slot and the class. A failure
     * half-way (a value deeper in the graph that is not serializable) writes nothing either.
     */
    private void write(CoroutineBase coroutine) throws IOException {
        if (closed) {
            throw new IOException("cannot write " + coroutine + ": the stream is closed");
        }
        CoroutineFrame[] frames = coroutine.serialize();
        checkSerializable(coroutine, frames);
        writingFrames(coroutine, frames);
        FrameCodec.write(out, coroutine, frames, this::replaceObject, recordSites);
    }

    /**
     * Called with the frames of each coroutine this stream is about to write, once they are
     * known to be serializable: a hook for subclasses that keep track of what they write (the
     * code the frames belong to, say). By default nothing. The frames are what the stream
     * writes next, and must not be changed.
     *
     * @param coroutine the coroutine being written
     * @param frames    its frames, innermost last, as {@link CoroutineBase#serialize()} gives them
     * @throws IOException to stop the write: nothing of the coroutine is written
     */
    protected void writingFrames(CoroutineBase coroutine, CoroutineFrame[] frames) throws IOException {
    }

    private void checkSerializable(CoroutineBase coroutine, CoroutineFrame[] frames) throws IOException {
        for (int i = 0; i < frames.length; i++) {
            CoroutineFrame frame = frames[i];
            for (int slot = 0; slot < frame.objectValues.length; slot++) {
                Object value = frame.objectValues[slot];
                Object written = value == null || value == coroutine || value instanceof Method ? null
                        : replaceObject(value); // a Method is written as a reference, by name
                if (written != null && !(written instanceof Serializable)) {
                    throw new NotSerializableException("cannot write " + coroutine + ": frame " + i + ", "
                            + slotInSourceTerms(frame, slot) + " holds a " + written.getClass().getName()
                            + ", which is not Serializable; nothing of the coroutine was written, and it goes on as it was");
                }
            }
        }
    }

    /**
     * {@code Class.method(File.java:line), local name (bci b, local slot s)}: slot {@code slot}
     * of {@code frame} as its source names it, then as the JVM does.
     */
    private static String slotInSourceTerms(CoroutineFrame frame, int slot) {
        return SourceTerms.place(frame.method, frame.bci) + ", "
                + SourceTerms.slot(frame.method, frame.bci, frame.localCount, slot) + " ("
                + SourceTerms.slotDetail(frame.method, frame.bci, frame.localCount, slot) + ")";
    }

    /**
     * What Java serialization writes in place of {@code obj}, an object in a slot or reachable
     * from one (strings and boxed primitives in a slot aside: they are written directly); a
     * hook for subclasses, as {@link ObjectOutputStream#replaceObject} is. By default
     * {@code obj} itself. It may be called more than once for the same object.
     *
     * @param obj an object about to be written by Java serialization
     * @return what to write instead
     * @throws IOException to stop the write
     */
    protected Object replaceObject(Object obj) throws IOException {
        return obj;
    }
}
