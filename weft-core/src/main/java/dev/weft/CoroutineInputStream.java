package dev.weft;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.StreamCorruptedException;
import java.util.List;
import javax.crypto.SecretKey;

/**
 * A stream that reads coroutines written by {@link CoroutineOutputStream}, in Weft's own format
 * (documented in {@code FrameCodec}), and {@linkplain CoroutineBase#deserialize deserializes}
 * each into a coroutine (thesis 5.2). Method references are resolved and checked against the
 * woven code here, before any object is read: a method that no longer exists, is not woven, or
 * changed since it was written is refused, as are frames that do not fit their methods (see
 * {@code deserialize}).
 *
 * <p>This is not an {@link ObjectInputStream} (it was one before Weft had a format of its own):
 * it reads coroutines only, one record each. Streams written before, Java object streams of
 * frames, are refused with a {@link StreamCorruptedException} that says so; there were no users
 * to migrate.
 *
 * <pre>{@code
 * try (var in = new CoroutineInputStream<String, String>(Files.newInputStream(file), key)) {
 *     AsymCoroutine<String, String> session = in.readAsymCoroutine();
 *     session.call(answer);
 * }
 * }</pre>
 *
 * <p>A coroutine read resumes in the code its frames name, on the engine of the coroutine it is
 * read into: its outermost frame's method is called on that frame's {@code this}, whatever body
 * the target was created with ({@link #readAsymCoroutine()} and {@link #readCoroutine()} read
 * into coroutines with none), on either engine, and frames written on one engine are read on the
 * other (see {@link CoroutineBase#deserialize}).
 *
 * <h2>Sealed streams</h2>
 * Given one or more keys, the reader accepts only a stream sealed with one of them (see
 * {@link CoroutineOutputStream}), and checks the seal over every byte in the constructor,
 * before a single object is read. A sealed stream is the whole stream: the constructor reads it
 * to its end, and refuses bytes after the seal. To rotate keys: write with the new key, read with the new
 * and the old ones ({@code new CoroutineInputStream<>(in, List.of(newKey, oldKey))}), and once
 * every state sealed with the old key has been read and written again, or has expired, drop it.
 *
 * <h2>Safe reading</h2>
 * Sealed or not, a filter refuses any class that is not allowed before it is instantiated or
 * initialized: allowed are Weft's own stream classes, the classes the weaver recorded for the
 * slots of the frames' methods (and their subclasses, unless the slot's type is as broad as
 * {@code Object} or {@code List}), lambdas made by woven code, and the JDK's value classes
 * (strings, boxed primitives, {@code BigInteger}, {@code BigDecimal}, {@code java.time} values,
 * {@code UUID}, and {@code ArrayList}, {@code LinkedList}, {@code ArrayDeque}). Others are allowed
 * with {@link #allow} or {@link #allowPackage}. The graph's depth, arrays' lengths, the number
 * of objects and of bytes are limited ({@link #limit}). So a stream from elsewhere runs no
 * code of a class it names, and never makes the reader run out of memory or stack, or hang.
 *
 * <h2>Refusals</h2>
 * Every refusal is an {@link IOException} of one of these types, with a message that names the
 * coroutine, frame or class and the reason:
 * <ul>
 *   <li>{@link StreamCorruptedException}: the bytes are not a coroutine stream (empty, truncated,
 *       corrupted, something else), a sealed stream read without a key or an unsealed one with
 *       a key, or a seal that matches none of the keys, a record of another format version, a
 *       length or count beyond what the record holds, a varint too long, an old Java object
 *       stream;</li>
 *   <li>{@link InvalidClassException}: the filter refused a class or a limit was exceeded
 *       (the record's length, a count of frames, slots, methods or objects);</li>
 *   <li>{@link InvalidObjectException}: frames that do not fit their methods, a method that
 *       no longer exists, is not woven or changed since it was written, frames of code woven
 *       in another format: another build.</li>
 * </ul>
 *
 * <p>Not thread-safe; the coroutine it returns belongs to the reading thread.
 *
 * @param <I> the input type of the asymmetric coroutines it reads
 * @param <O> their output type
 */
public class CoroutineInputStream<I, O> implements Closeable {

    private final InputStream in;
    private final ClassLoader loader;
    private final ReadFilter filter = new ReadFilter();
    /** What is done with frames of changed methods ({@link #acceptChangedCode}): by default, refused. */
    private FrameCodec.ChangedCode changedCode = FrameCodec.ChangedCode.REFUSED;

    /**
     * A stream of unsealed coroutines that resolves classes as {@link ObjectInputStream} does.
     *
     * @param in the bytes to read
     * @throws IOException if {@code in} cannot be read
     */
    public CoroutineInputStream(InputStream in) throws IOException {
        this(in, (ClassLoader) null);
    }

    /**
     * A stream of unsealed coroutines that resolves the classes it reads with {@code loader}.
     *
     * @param in     the bytes to read
     * @param loader the class loader of the frames' classes; null: as {@link ObjectInputStream} does
     * @throws IOException if {@code in} cannot be read
     */
    public CoroutineInputStream(InputStream in, ClassLoader loader) throws IOException {
        this(Seal.unsealed(in), loader, true);
    }

    /**
     * A stream of coroutines sealed with {@code key}, whose seal is checked here, before
     * anything is read.
     *
     * @param in  the sealed bytes to read, read whole here
     * @param key the key they were sealed with
     * @throws StreamCorruptedException if the stream is not sealed, or its seal does not match
     * @throws IOException              if {@code in} cannot be read
     */
    public CoroutineInputStream(InputStream in, SecretKey key) throws IOException {
        this(in, List.of(key), null);
    }

    /**
     * A stream of coroutines sealed with any one of {@code keys} (for rotation: the current key
     * and those before it), whose seal is checked here, before anything is read.
     *
     * @param in   the sealed bytes to read, read whole here
     * @param keys the keys accepted
     * @throws StreamCorruptedException if the stream is not sealed, or its seal matches none of the keys
     * @throws IOException              if {@code in} cannot be read
     */
    public CoroutineInputStream(InputStream in, List<SecretKey> keys) throws IOException {
        this(in, keys, null);
    }

    /**
     * A stream of coroutines sealed with any one of {@code keys} (for rotation: the current key
     * and those before it), whose seal is checked here; classes are resolved with {@code loader}
     * (null: as {@link ObjectInputStream} does).
     *
     * @param in     the sealed bytes to read, read whole here
     * @param keys   the keys accepted
     * @param loader the class loader of the frames' classes; null: as {@link ObjectInputStream} does
     * @throws StreamCorruptedException if the stream is not sealed, or its seal matches none of the keys
     * @throws IOException              if {@code in} cannot be read
     */
    public CoroutineInputStream(InputStream in, List<SecretKey> keys, ClassLoader loader) throws IOException {
        this(new ByteArrayInputStream(Seal.read(in, List.copyOf(keys))), loader, true);
    }

    private CoroutineInputStream(InputStream checked, ClassLoader loader, boolean unused) {
        this.in = checked;
        this.loader = loader;
    }

    /** Closes the underlying stream. */
    @Override
    public void close() throws IOException {
        in.close();
    }

    /**
     * Allows the reader to read instances of {@code classes} too (and arrays of them).
     *
     * @param classes the classes allowed
     * @return this stream
     */
    public CoroutineInputStream<I, O> allow(Class<?>... classes) {
        for (Class<?> type : classes) {
            filter.allow(type.getName());
        }
        return this;
    }

    /**
     * Allows the reader to read instances of every class in the packages named, and their subpackages.
     *
     * @param packageNames the packages allowed, such as {@code "com.example.flows"}
     * @return this stream
     */
    public CoroutineInputStream<I, O> allowPackage(String... packageNames) {
        for (String name : packageNames) {
            filter.allowPackage(name);
        }
        return this;
    }

    /**
     * Accepts frames of methods whose code has changed since they were written, where the new
     * code still fits them, in records written with
     * {@link CoroutineOutputStream#recordSites()}; by default such a frame is refused. A frame
     * fits the new code when (1) the call it is suspended in is found there: the call of the same
     * method that is as many calls of it into the method's code as before, the code making as
     * many calls of it as before; (2) the same monitors are held there, and the operand stack
     * below the call has the same types; and (3) every variable live there in the new code was
     * live in the saved frame, under the same name and of the same type: it takes that value
     * (so the class must be compiled with its variables' names, {@code javac -g}). Variables
     * the new code no longer reads there are dropped; frames of unchanged methods are checked
     * exactly, as always. Anything else is refused with an {@link InvalidObjectException} that
     * names the frame, the line and the variable: "`total` is live at
     * OrderFlow.run(OrderFlow.java:48) in the new code but not in the saved frame". The new
     * code then runs from there: the frame resumes after its call, whatever the code now does
     * before it.
     *
     * @return this stream
     */
    public CoroutineInputStream<I, O> acceptChangedCode() {
        changedCode = new FrameCodec.ChangedCode(true, changedCode.formerSites());
        return this;
    }

    /**
     * As {@link #acceptChangedCode()}, and for records written without their sites too: the
     * site of a frame of a changed method is then found among those {@code formerSites} gives
     * for the method's former code, the text {@link CoroutineOutputStream#sitesOf} gave the
     * writer. So a store keeps each method's sites once, with the fingerprint of its code,
     * rather than in every record. A record that carries its sites is matched by those. A frame
     * whose method's former sites are not known ({@code formerSites} answers null) is refused,
     * naming the method and its fingerprint, and so are sites that are not that code's.
     *
     * @param formerSites where the sites of a method's former code are found
     * @return this stream
     */
    public CoroutineInputStream<I, O> acceptChangedCode(FormerSites formerSites) {
        if (formerSites == null) {
            throw new NullPointerException("formerSites");
        }
        changedCode = new FrameCodec.ChangedCode(true, formerSites);
        return this;
    }

    /**
     * Where a reader that {@linkplain #acceptChangedCode(FormerSites) accepts changed code}
     * finds the sites of a method's former code. Called on the reading thread, at most once per
     * method and record.
     */
    @FunctionalInterface
    public interface FormerSites {
        /**
         * The sites of a method's code as {@link CoroutineOutputStream#sitesOf} gave them when
         * its fingerprint was {@code fingerprint} ({@link CoroutineOutputStream#fingerprintOf}).
         *
         * @param className   the binary name of the method's class, {@code com.example.OrderFlow}
         * @param method      its name and descriptor, {@code run(Ljava/lang/String;)V}
         * @param fingerprint the fingerprint of its code when the frame was written
         * @return the text, or null if it is not known
         */
        String sitesOf(String className, String method, String fingerprint);
    }

    /**
     * Sets the limits of what the reader reads: the object graph's depth, an array's length
     * (and the record's counts of methods, frames and slots), the number of objects and of
     * bytes (a record's length, and its serialized objects'); by default 256, 2^20, 2^20 and 256 MiB.
     *
     * @param maxDepth       the deepest object graph read
     * @param maxArrayLength the longest array, and the most methods, frames or slots in a record
     * @param maxReferences  the most objects read
     * @param maxBytes       the longest record, and the most bytes of serialized objects
     * @return this stream
     */
    public CoroutineInputStream<I, O> limit(long maxDepth, long maxArrayLength, long maxReferences, long maxBytes) {
        filter.limit(maxDepth, maxArrayLength, maxReferences, maxBytes);
        return this;
    }

    /**
     * Reads a coroutine into a new {@link AsymCoroutine} of the {@linkplain Engine#defaultEngine()
     * default engine}, which belongs to the current thread; it has no body of its own, and runs
     * the code the frames name.
     *
     * @return the coroutine read, suspended where the written one was
     * @throws IOException if the bytes cannot be read, or are refused (see the class comment)
     */
    public AsymCoroutine<I, O> readAsymCoroutine() throws IOException {
        return readAsymCoroutine(new AsymCoroutine<>());
    }

    /**
     * Reads a coroutine into {@code target}, replacing its stack.
     *
     * @param target a coroutine of the current thread, new or suspended
     * @return {@code target}
     * @throws IOException if the bytes cannot be read, or are refused (see the class comment);
     *                     {@code target} is then as it was
     */
    public AsymCoroutine<I, O> readAsymCoroutine(AsymCoroutine<I, O> target) throws IOException {
        read(target);
        return target;
    }

    /**
     * Reads a symmetric coroutine into a new {@link Coroutine} of the {@linkplain
     * Engine#defaultEngine() default engine}, next in the current thread's ring; it has no body
     * of its own, and runs the code the frames name.
     *
     * @return the coroutine read, suspended where the written one was
     * @throws IOException if the bytes cannot be read, or are refused (see the class comment)
     */
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

    /**
     * Reads a coroutine's frames without restoring them into a coroutine: to look at a stored
     * coroutine (a console, a debugger), never to run it. The record is read exactly as the
     * other reads read it (the seal, the filter and the limits, every method resolved and its
     * code checked, its class initialized as a woven class is when a coroutine is restored),
     * but the frames are not checked against the methods' code. A slot or an object that
     * referred to the written coroutine refers to {@code standIn}: give a new coroutine of the
     * kind that was written (an {@link AsymCoroutine} for one written by
     * {@link CoroutineOutputStream#writeAsymCoroutine}), and do not run it.
     *
     * @param standIn what references to the written coroutine resolve to
     * @return the frames, outermost first
     * @throws IOException if the bytes cannot be read, or are refused (see the class comment)
     */
    public CoroutineFrame[] readFrames(CoroutineBase standIn) throws IOException {
        filter.allow(standIn.getClass().getName()); // seen again when the stream refers back to it
        return FrameCodec.read(in, standIn, filter, loader, this::resolveObject, changedCode);
    }

    private void read(CoroutineBase target) throws IOException {
        filter.allow(target.getClass().getName()); // what a reference to itself resolves to, seen again when referred back to
        CoroutineFrame[] frames = FrameCodec.read(in, target, filter, loader, this::resolveObject, changedCode);
        try {
            target.deserialize(frames);
        } catch (IllegalArgumentException e) {
            InvalidObjectException invalid = new InvalidObjectException(e.getMessage());
            invalid.initCause(e);
            throw invalid;
        }
    }

    /**
     * What an object that Java serialization read from a slot (or from inside one) stands for;
     * a hook for subclasses, as {@link ObjectInputStream#resolveObject} is, the counterpart of
     * {@link CoroutineOutputStream#replaceObject}. By default {@code obj} itself. Strings and
     * boxed primitives in a slot are read directly, without it.
     *
     * @param obj an object as Java serialization read it
     * @return what the slot holds instead
     * @throws IOException to refuse the stream
     */
    protected Object resolveObject(Object obj) throws IOException {
        return obj;
    }
}
