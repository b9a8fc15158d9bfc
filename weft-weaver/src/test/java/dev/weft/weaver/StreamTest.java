package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectOutputStream;
import java.io.StreamCorruptedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Coroutines written to bytes by {@link dev.weft.CoroutineOutputStream} and read back by {@link dev.weft.CoroutineInputStream}. */
class StreamTest extends WovenFixtureTest {

    private static List<String> drive(AsymCoroutine<Integer, String> co, int... inputs) {
        List<String> out = new ArrayList<>();
        for (int input : inputs) {
            out.add(co.call(input));
        }
        return out;
    }

    /** Reads into a new instance of the fixture {@code type}: the frames' {@code this} is the coroutine itself. */
    private static AsymCoroutine<Integer, String> read(byte[] bytes, WovenLoader classes, String type) throws IOException {
        return Replay.read(bytes, classes, classes.newInstance(type));
    }

    @Test
    void aCoroutineWrittenToBytesResumesInANewCoroutineAndBothGoOnIndependently() throws IOException {
        List<String> expected = drive(loader.newInstance("Accumulator"), 1, 2, 3, 4, 5, 6);
        AsymCoroutine<Integer, String> original = loader.newInstance("Accumulator");
        drive(original, 1, 2);
        AsymCoroutine<Integer, String> copy = read(Replay.write(original), loader, "Accumulator");
        assertEquals(expected.subList(2, 6), drive(copy, 3, 4, 5, 6));
        assertEquals(expected.subList(2, 6), drive(original, 3, 4, 5, 6), "bytes hold copies: the original's array is its own");
    }

    @Test
    void aRoundTripOfARoundTrip() throws IOException {
        List<String> expected = drive(loader.newInstance("Series"), 2, 3, 4, 5, 6, 7, 8);
        AsymCoroutine<Integer, String> first = loader.newInstance("Series");
        assertEquals(expected.subList(0, 2), drive(first, 2, 3));
        AsymCoroutine<Integer, String> second = read(Replay.write(first), loader, "Series");
        assertEquals(expected.subList(2, 3), drive(second, 4));
        AsymCoroutine<Integer, String> third = read(Replay.write(second), loader, "Series");
        assertEquals(expected.subList(3, 7), drive(third, 5, 6, 7, 8));
        assertTrue(third.isFinished());
        assertTrue(expected.get(6).startsWith("end "), expected.get(6));
    }

    @Test
    void writtenOnOneThreadAndResumedOnAnother() throws Exception {
        List<String> expected = drive(loader.newInstance("Series"), 1, 2, 3, 4, 5, 6);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            byte[] bytes = writer.submit(() -> {
                AsymCoroutine<Integer, String> co = loader.newInstance("Series");
                drive(co, 1, 2, 3);
                return Replay.write(co);
            }).get();
            List<String> rest = reader.submit((Callable<List<String>>) () -> drive(read(bytes, loader, "Series"), 4, 5, 6)).get();
            assertEquals(expected.subList(3, 6), rest);
        } finally {
            writer.shutdown();
            reader.shutdown();
        }
    }

    /** Method references in the middle of the chain: their proxies, and the coroutine one of them holds, go through the bytes. */
    @Test
    void methodReferencesCalledInTheMiddleOfTheChain() throws IOException {
        List<String> expected = drive(loader.newInstance("MethodReferenceInChain"), 1, 2, 3);
        for (int cut = 1; cut <= 2; cut++) {
            AsymCoroutine<Integer, String> original = loader.newInstance("MethodReferenceInChain");
            List<String> seen = new ArrayList<>(drive(original, java.util.stream.IntStream.rangeClosed(1, cut).toArray()));
            AsymCoroutine<Integer, String> copy = read(Replay.write(original), loader, "MethodReferenceInChain");
            seen.addAll(drive(copy, java.util.stream.IntStream.rangeClosed(cut + 1, 3).toArray()));
            assertEquals(expected, seen, "written after " + cut + " calls");
            assertTrue(copy.isFinished());
        }
    }

    @Test
    void truncatedBytesAreRefused() throws IOException {
        String next = drive(loader.newInstance("Series"), 1, 2).get(1);
        AsymCoroutine<Integer, String> co = loader.newInstance("Series");
        drive(co, 1);
        byte[] bytes = Replay.write(co);
        for (int length : new int[] {0, 3, bytes.length / 2, bytes.length - 1}) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            IOException e = assertThrows(IOException.class, () -> read(truncated, loader, "Series"), "length " + length);
            assertTrue(e instanceof StreamCorruptedException || e instanceof java.io.EOFException, e.toString());
        }
        assertEquals(next, drive(co, 2).get(0), "the writer goes on");
    }

    @Test
    void randomBytesAreRefused() {
        Random random = new Random(42);
        for (int i = 0; i < 50; i++) {
            byte[] noise = new byte[1 + random.nextInt(300)];
            random.nextBytes(noise);
            assertThrows(StreamCorruptedException.class, () -> read(noise, loader, "Series"));
        }
    }

    @Test
    void aJavaObjectStreamAsWeftWroteBeforeItsFormatIsRefusedAsSuch() throws IOException {
        AsymCoroutine<Integer, String> co = loader.newInstance("Series");
        drive(co, 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(List.of("Java-serialized", "frames"));
        }
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, () -> read(bytes.toByteArray(), loader, "Series"));
        assertTrue(e.getMessage().contains("is a Java object stream (it starts with 0xACED), as Weft wrote coroutines before"),
                e.getMessage());
    }

    @Test
    void aMethodWhoseCodeChangedIsRefused() throws IOException {
        AsymCoroutine<Integer, String> co = loader.newInstance("Series");
        drive(co, 1, 2);
        byte[] bytes = Replay.write(co);
        WovenLoader changed = new WovenLoader(edit(
                (mv) -> new MethodVisitor(Opcodes.ASM9, mv) {
                    @Override
                    public void visitLdcInsn(Object value) {
                        super.visitLdcInsn(value instanceof Long l && l == 1_000_000_007L ? 1_000_000_009L : value);
                    }
                }));
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> read(bytes, changed, "Series"));
        assertTrue(e.getMessage().contains("Series.run") && e.getMessage().contains("changed since"), e.getMessage());
        assertFalse(co.isFinished());
    }

    @Test
    void aMethodThatNoLongerExistsIsRefused() throws IOException {
        AsymCoroutine<Integer, String> co = loader.newInstance("Series");
        drive(co, 1);
        byte[] bytes = Replay.write(co);
        WovenLoader renamed = new WovenLoader(editSeries(writer -> new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                boolean target = name.equals("run") && desc.equals("(Ljava/lang/Integer;)Ljava/lang/String;");
                return super.visitMethod(access, target ? "renamed" : name, desc, signature, exceptions);
            }
        }));
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> read(bytes, renamed, "Series"));
        assertTrue(e.getMessage().contains("no longer exists"), e.getMessage());
    }

    /** An edit of the Series fixture's methods, through {@code wrap}. */
    private static UnaryOperator<byte[]> edit(UnaryOperator<MethodVisitor> wrap) {
        return editSeries(writer -> new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return wrap.apply(super.visitMethod(access, name, desc, signature, exceptions));
            }
        });
    }

    /** Another version of the Series fixture's class file: {@code editor} stands between its reader and writer. */
    private static UnaryOperator<byte[]> editSeries(UnaryOperator<ClassVisitor> editor) {
        return bytes -> {
            ClassReader reader = new ClassReader(bytes);
            if (!reader.getClassName().endsWith("/Series")) {
                return bytes;
            }
            ClassWriter writer = new ClassWriter(0);
            reader.accept(editor.apply(writer), 0);
            return writer.toByteArray();
        };
    }
}
