package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFiles;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Coroutines through bytes that cannot be trusted, on either engine: sealed streams refuse
 * every changed byte and the wrong key; the default filter refuses classes nobody allowed
 * (before their code runs), bombs and huge lengths, quickly; short input is named as such;
 * a value that cannot be written is refused before anything is. Every refusal is of the type
 * {@link CoroutineInputStream} documents.
 */
class StreamSafetyTest {

    /** Passes out what it holds; a non-null input replaces it. */
    static final class Holder extends AsymCoroutine<Object, Object> {
        Holder(Engine engine) {
            super(engine);
        }

        @Override
        protected Object run(Object first) {
            Object held = first;
            while (true) {
                Object in = ret(held);
                if (in != null) {
                    held = in;
                }
            }
        }
    }

    /** Set when a {@link Gadget} is read. */
    static final AtomicBoolean GADGET_RAN = new AtomicBoolean();

    /** A class whose readObject has a side effect. */
    static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            GADGET_RAN.set(true);
        }
    }

    private static final SecretKey KEY = key(1);
    private static final SecretKey OLD_KEY = key(2);

    private static SecretKey key(int seed) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) seed);
        return new SecretKeySpec(bytes, "HmacSHA256");
    }

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    private static Holder holding(Engine engine, Object value) {
        Holder co = new Holder(engine);
        assertEquals(value, co.call(value));
        return co;
    }

    private static byte[] write(CoroutineBase co, SecretKey key) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Object, Object> out = key == null ? new CoroutineOutputStream<>(bytes)
                : new CoroutineOutputStream<>(bytes, key)) {
            out.writeAsymCoroutine((Holder) co);
        }
        return bytes.toByteArray();
    }

    private static Holder read(byte[] bytes, Engine engine, List<SecretKey> keys) throws IOException {
        Holder target = new Holder(engine);
        try (CoroutineInputStream<Object, Object> in = keys == null
                ? new CoroutineInputStream<>(new ByteArrayInputStream(bytes))
                : new CoroutineInputStream<>(new ByteArrayInputStream(bytes), keys)) {
            return (Holder) in.readAsymCoroutine(target);
        }
    }

    // ------------------------------------------------------------ sealed streams

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSealedCoroutineGoesThroughBytesWithItsKey(Engine engine) throws IOException {
        byte[] sealed = write(holding(engine, "kept"), KEY);
        Holder copy = read(sealed, engine, List.of(KEY));
        assertEquals("kept", copy.call(null));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyChangedBitOfASealedStreamIsRefused(Engine engine) throws IOException {
        byte[] sealed = write(holding(engine, "kept"), KEY);
        for (int i = 0; i < sealed.length; i++) {
            for (int bit = 0; bit < 8; bit += 3) {
                byte[] changed = sealed.clone();
                changed[i] ^= (byte) (1 << bit);
                StreamCorruptedException e = assertThrows(StreamCorruptedException.class,
                        () -> read(changed, engine, List.of(KEY)), "byte " + i + " bit " + bit);
                assertTrue(e.getMessage().startsWith("cannot read a coroutine: "), e.getMessage());
            }
        }
        byte[] longer = java.util.Arrays.copyOf(sealed, sealed.length + 1);
        StreamCorruptedException appended = assertThrows(StreamCorruptedException.class,
                () -> read(longer, engine, List.of(KEY)));
        assertTrue(appended.getMessage().contains("goes on after its seal"), appended.getMessage());
        for (int length = 0; length < sealed.length; length += 7) {
            byte[] truncated = java.util.Arrays.copyOf(sealed, length);
            assertThrows(StreamCorruptedException.class, () -> read(truncated, engine, List.of(KEY)), "cut at " + length);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theWrongKeyTheMissingKeyAndAnUnsealedStreamAreRefused(Engine engine) throws IOException {
        byte[] sealed = write(holding(engine, "kept"), KEY);
        StreamCorruptedException wrongKey = assertThrows(StreamCorruptedException.class,
                () -> read(sealed, engine, List.of(OLD_KEY)));
        assertTrue(wrongKey.getMessage().contains("seal matches none of the 1 key(s)"), wrongKey.getMessage());
        StreamCorruptedException noKey = assertThrows(StreamCorruptedException.class, () -> read(sealed, engine, null));
        assertTrue(noKey.getMessage().contains("the stream is sealed; read it with its key"), noKey.getMessage());
        byte[] unsealed = write(holding(engine, "kept"), null);
        StreamCorruptedException notSealed = assertThrows(StreamCorruptedException.class,
                () -> read(unsealed, engine, List.of(KEY)));
        assertTrue(notSealed.getMessage().contains("not sealed, but a key was given"), notSealed.getMessage());
    }

    /** Rotation: read with the new key and the old; state sealed with the old one goes on, and is sealed anew. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void keysRotate(Engine engine) throws IOException {
        byte[] old = write(holding(engine, "kept"), OLD_KEY);
        Holder copy = read(old, engine, List.of(KEY, OLD_KEY));
        byte[] resealed = write(copy, KEY);
        assertEquals("kept", read(resealed, engine, List.of(KEY)).call(null));
        assertThrows(StreamCorruptedException.class, () -> read(old, engine, List.of(KEY)), "the old key dropped");
    }

    // ------------------------------------------------------------ the filter

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aClassNobodyAllowedIsRefusedBeforeItsCodeRuns(Engine engine) throws IOException {
        byte[] bytes = write(holding(engine, new Gadget()), null);
        GADGET_RAN.set(false);
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> read(bytes, engine, null));
        assertTrue(e.getMessage().contains("it holds a " + Gadget.class.getName() + ", which is not allowed")
                && e.getMessage().contains("allow(" + Gadget.class.getName() + ".class)"), e.getMessage());
        assertFalse(GADGET_RAN.get(), "its readObject ran");
        Holder target = new Holder(engine);
        try (CoroutineInputStream<Object, Object> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes))) {
            in.allow(Gadget.class).readAsymCoroutine(target);
        }
        assertTrue(GADGET_RAN.get());
        assertTrue(target.call(null) instanceof Gadget);
    }

    /** Nested HashSets: each level doubles the work of reading (hashing) the next. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aNestedHashSetBombIsRefused(Engine engine) throws IOException {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add("foo");
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        byte[] bytes = write(holding(engine, root), null);
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> read(bytes, engine, null));
        assertTrue(e.getMessage().contains("java.util.HashSet, which is not allowed"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aHugeArrayLengthIsRefusedWithoutAllocatingIt(Engine engine) throws IOException {
        long[] marker = {0x1122334455667788L};
        byte[] bytes = write(holding(engine, marker), null);
        int at = indexOf(bytes, new byte[] {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88});
        bytes[at - 4] = 0x7f; // the array's length, just before its elements: 2^31 - 1
        bytes[at - 3] = (byte) 0xff;
        bytes[at - 2] = (byte) 0xff;
        bytes[at - 1] = (byte) 0xff;
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> read(bytes, engine, null));
        assertTrue(e.getMessage().contains("an array of 2147483647 elements is longer than"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void deepNestingIsRefusedWithoutOverflowingTheStack(Engine engine) throws Throwable {
        Object[] nested = new Object[0];
        for (int i = 0; i < 20_000; i++) {
            nested = new Object[] {nested};
        }
        Object deep = nested;
        byte[] bytes = onBigStack(() -> write(holding(engine, deep), null));
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> read(bytes, engine, null));
        assertTrue(e.getMessage().contains("the object graph is deeper than"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void shortInputIsNamedAsSuch(Engine engine) {
        for (int n = 0; n < 4; n++) {
            byte[] bytes = new byte[n];
            StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(bytes, engine, null));
            assertTrue(e.getMessage().contains("the stream ends after " + n + " byte(s)"), e.getMessage());
        }
    }

    // ------------------------------------------------------------ writing

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aValueThatIsNotSerializableIsRefusedBeforeAnythingIsWritten(Engine engine) throws IOException {
        Holder co = holding(engine, new Object());
        co.setName("holder");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] header;
        try (CoroutineOutputStream<Object, Object> out = new CoroutineOutputStream<>(bytes)) {
            out.flush();
            header = bytes.toByteArray();
            NotSerializableException e = assertThrows(NotSerializableException.class, () -> out.writeAsymCoroutine(co));
            assertTrue(e.getMessage().contains("cannot write holder [suspended") && e.getMessage().contains("frame ")
                    && e.getMessage().contains(Holder.class.getName() + ".run(StreamSafetyTest.java:")
                    && e.getMessage().contains("), local held (bci ")
                    && e.getMessage().contains("holds a java.lang.Object, which is not Serializable"), e.getMessage());
            out.flush();
            assertArrayEquals(header, bytes.toByteArray(), "nothing of the coroutine was written");
        }
        assertTrue(co.call("next") instanceof Object, "it goes on as it was");
        assertEquals("next", co.call(null));
    }

    // ------------------------------------------------------------ files

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aFileIsReplacedWholeAndStaleTemporaryFilesAreRemoved(Engine engine, @TempDir Path directory) throws IOException {
        Path file = directory.resolve("state.bin");
        Path stale = directory.resolve(".state.bin.12345.weft-tmp"); // what a crash mid-write leaves
        Files.write(stale, new byte[] {1, 2, 3});
        Files.write(directory.resolve(".other.bin.1.weft-tmp"), new byte[] {1}); // another file's: kept
        CoroutineFiles.write(file, holding(engine, "first"), KEY);
        assertFalse(Files.exists(stale));
        assertEquals(List.of(".other.bin.1.weft-tmp", "state.bin"), list(directory));
        CoroutineFiles.write(file, holding(engine, "second"), KEY);
        assertEquals("second", read(Files.readAllBytes(file), engine, List.of(KEY)).call(null));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aFailedWriteLeavesTheFileAsItWasAndNoTemporaryFile(Engine engine, @TempDir Path directory) throws IOException {
        Path file = directory.resolve("state.bin");
        CoroutineFiles.write(file, holding(engine, "first"), null);
        byte[] before = Files.readAllBytes(file);
        Holder unwritable = holding(engine, new Object());
        NotSerializableException e = assertThrows(NotSerializableException.class,
                () -> CoroutineFiles.write(file, unwritable, null));
        assertTrue(e.getMessage().contains("holds a java.lang.Object, which is not Serializable"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file));
        assertEquals(List.of("state.bin"), list(directory));
        assertEquals("next", unwritable.call("next"), "the coroutine goes on");
    }

    private static List<String> list(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    // ------------------------------------------------------------ helpers

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    private static <T> T onBigStack(java.util.concurrent.Callable<T> task) throws Throwable {
        java.util.concurrent.FutureTask<T> future = new java.util.concurrent.FutureTask<>(task);
        Thread thread = new Thread(null, future, "big-stack", 512L << 20);
        thread.start();
        thread.join();
        try {
            return future.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause();
        }
    }
}
