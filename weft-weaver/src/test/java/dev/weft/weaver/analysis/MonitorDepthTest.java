package dev.weft.weaver.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.BasicVerifier;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * {@link MonitorDepth}: the exact depth before each instruction of small methods built with
 * ASM's tree API, each laid out as javac compiles {@code synchronized} (a catch-all handler over
 * the block that exits the monitor and rethrows, and a second entry of that handler over its own
 * exit), checked with ASM's {@link BasicVerifier} first; then the depth at the calls of
 * fixtures javac compiled.
 */
class MonitorDepthTest implements Opcodes {

    private static final String OWNER = "T";

    @Test
    void aMethodWithoutMonitorsHoldsNoneAnywhere() {
        MethodNode m = method(0, "(I)I");
        call(m, "a");
        m.visitVarInsn(ILOAD, 0);
        m.visitInsn(IRETURN);

        assertArrayEquals(new int[] {0, 0, 0}, depths(m));
    }

    @Test
    void aSynchronizedMethodHoldsItsMonitorBeforeEveryInstruction() {
        MethodNode m = method(ACC_SYNCHRONIZED, "(I)I");
        call(m, "a");
        m.visitVarInsn(ILOAD, 0);
        m.visitInsn(IRETURN);

        assertArrayEquals(new int[] {1, 1, 1}, depths(m));
    }

    /**
     * One block: held from after monitorenter to its monitorexit, then not; inside the handler
     * javac emits, held until the handler's own monitorexit, then not as it rethrows.
     */
    @Test
    void aSynchronizedBlockAndItsCatchAllHandler() {
        MethodNode m = method(0, "(Ljava/lang/Object;)V");
        synchronizedBlock(m, 0, 1, () -> call(m, "a"));
        call(m, "b");
        m.visitInsn(RETURN);

        assertArrayEquals(new int[] {
            0, 0, 0, 0, // aload 0, dup, astore 1, monitorenter
            1, 1, 1,    // a, aload 1, monitorexit
            0,          // goto after
            1, 1, 1,    // handler: astore, aload 1, monitorexit
            0, 0,       // aload, athrow
            0, 0,       // b, return
        }, depths(m));
    }

    @Test
    void nestedBlocksAddUpAndEachHandlerKnowsItsOwnDepth() {
        MethodNode m = method(0, "(Ljava/lang/Object;Ljava/lang/Object;)V");
        synchronizedBlock(m, 0, 2, () -> {
            call(m, "a");
            synchronizedBlock(m, 1, 4, () -> call(m, "b"));
            call(m, "c");
        });
        call(m, "d");
        m.visitInsn(RETURN);

        assertArrayEquals(new int[] {
            0, 0, 0, 0,     // outer monitorenter
            1,              // a
            1, 1, 1, 1,     // inner monitorenter
            2, 2, 2,        // b, aload 4, monitorexit
            1,              // goto
            2, 2, 2,        // inner handler, up to its monitorexit
            1, 1,           // aload, athrow: the outer monitor still held
            1, 1, 1,        // c, aload 2, monitorexit
            0,              // goto
            1, 1, 1,        // outer handler
            0, 0,           // aload, athrow
            0, 0,           // d, return
        }, depths(m));
    }

    @Test
    void aBlockInsideASynchronizedMethodCountsBothMonitors() {
        MethodNode m = method(ACC_SYNCHRONIZED, "(Ljava/lang/Object;)V");
        synchronizedBlock(m, 0, 1, () -> call(m, "a"));
        call(m, "b");
        m.visitInsn(RETURN);

        MonitorDepth depth = compute(m);
        assertEquals(2, depth.before(indexOfCall(m, "a")));
        assertEquals(1, depth.before(indexOfCall(m, "b")));
    }

    /**
     * A try with a typed catch around a block (javac's order: the block's catch-all entries
     * first, the try's entry after them): an exception from inside the block reaches the block's
     * catch-all first, which exits the monitor, so the catch and the code after the try hold
     * nothing (the fix of commit 4e9a48c; before it, both counted the block's monitor).
     */
    @Test
    void aTryAroundASynchronizedBlockDoesNotHoldItsMonitorInTheCatchOrAfter() {
        MethodNode m = method(0, "(Ljava/lang/Object;)V");
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label after = new Label();
        m.visitLabel(start);
        synchronizedBlock(m, 0, 1, () -> call(m, "a"));
        m.visitLabel(end);
        m.visitJumpInsn(GOTO, after);
        m.visitLabel(handler);
        m.visitVarInsn(ASTORE, 1);
        call(m, "b");
        m.visitLabel(after);
        call(m, "c");
        m.visitInsn(RETURN);
        m.visitTryCatchBlock(start, end, handler, "java/lang/RuntimeException");

        assertArrayEquals(new int[] {
            0, 0, 0, 0, // monitorenter
            1, 1, 1,    // a, aload 1, monitorexit
            0,          // goto
            1, 1, 1,    // the block's handler, up to its monitorexit
            0, 0,       // aload, athrow
            0,          // goto after
            0, 0,       // the catch: astore 1, b
            0, 0,       // c, return
        }, depths(m));
    }

    /** A try whose typed catch is listed before the block's catch-all (a try inside the block): the catch runs holding the monitor. */
    @Test
    void aCatchInsideASynchronizedBlockHoldsItsMonitor() {
        MethodNode m = method(0, "(Ljava/lang/Object;)V");
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label joined = new Label();
        m.visitTryCatchBlock(start, end, handler, "java/lang/RuntimeException");
        synchronizedBlock(m, 0, 1, () -> {
            m.visitLabel(start);
            call(m, "a");
            m.visitLabel(end);
            m.visitJumpInsn(GOTO, joined);
            m.visitLabel(handler);
            m.visitVarInsn(ASTORE, 2);
            call(m, "b");
            m.visitLabel(joined);
        });
        call(m, "c");
        m.visitInsn(RETURN);

        MonitorDepth depth = compute(m);
        assertEquals(1, depth.before(indexOfCall(m, "a")));
        assertEquals(1, depth.before(indexOfCall(m, "b")));
        assertEquals(0, depth.before(indexOfCall(m, "c")));
    }

    /** A finally (a catch-all of its own) around a block: its handler and what follows hold nothing. */
    @Test
    void aFinallyAroundASynchronizedBlockDoesNotHoldItsMonitor() {
        MethodNode m = method(0, "(Ljava/lang/Object;)V");
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        m.visitLabel(start);
        synchronizedBlock(m, 0, 1, () -> call(m, "a"));
        m.visitLabel(end);
        call(m, "b"); // the finally block, on the normal path
        m.visitInsn(RETURN);
        m.visitLabel(handler);
        m.visitVarInsn(ASTORE, 2);
        call(m, "c"); // the finally block, on the exceptional path
        m.visitVarInsn(ALOAD, 2);
        m.visitInsn(ATHROW);
        m.visitTryCatchBlock(start, end, handler, null);

        MonitorDepth depth = compute(m);
        assertEquals(1, depth.before(indexOfCall(m, "a")));
        assertEquals(0, depth.before(indexOfCall(m, "b")));
        assertEquals(0, depth.before(indexOfCall(m, "c")));
    }

    /** Where paths that hold different counts join, the depth is the greatest of them. */
    @Test
    void whereDepthsJoinTheGreatestCounts() {
        MethodNode m = method(0, "(Ljava/lang/Object;I)V");
        Label join = new Label();
        m.visitVarInsn(ILOAD, 1);
        m.visitJumpInsn(IFEQ, join);
        m.visitVarInsn(ALOAD, 0);
        m.visitInsn(MONITORENTER);
        m.visitLabel(join);
        call(m, "a");
        m.visitInsn(RETURN);

        assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1}, depths(m));
    }

    @Test
    void aMonitorexitWithoutAMonitorenterNeverCountsBelowZero() {
        MethodNode m = method(0, "(Ljava/lang/Object;)V");
        m.visitVarInsn(ALOAD, 0);
        m.visitInsn(MONITOREXIT);
        call(m, "a");
        m.visitInsn(RETURN);

        assertArrayEquals(new int[] {0, 0, 0, 0}, depths(m));
    }

    /** A monitorenter in a loop with no exit has no greatest count: the analysis ends, at its cap of 255. */
    @Test
    void aMonitorenterInALoopEndsAtTheCap() {
        MethodNode m = method(0, "(Ljava/lang/Object;)V");
        Label loop = new Label();
        m.visitLabel(loop);
        m.visitVarInsn(ALOAD, 0);
        m.visitInsn(MONITORENTER);
        call(m, "a");
        m.visitJumpInsn(GOTO, loop);

        assertEquals(255, compute(m).before(indexOfCall(m, "a")));
    }

    /** Unreachable code (ASM's frame is null there) holds nothing, even after a monitorenter. */
    @Test
    void unreachableCodeHoldsNothing() {
        MethodNode m = method(0, "(Ljava/lang/Object;)V");
        call(m, "a");
        m.visitInsn(RETURN);
        m.visitVarInsn(ALOAD, 0);
        m.visitInsn(MONITORENTER);
        call(m, "b");
        m.visitInsn(RETURN);

        Frame<BasicValue>[] frames = verify(m);
        assertNull(frames[indexOfCall(m, "b")], "ASM's frame of unreachable code");
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0}, depths(m));
    }

    @Test
    void aMethodWithoutInstructionsHasNoDepths() {
        MethodNode m = new MethodNode(ACC_ABSTRACT, "m", "()V", null, null);
        assertEquals(0, m.instructions.size());
        MonitorDepth.compute(m);
    }

    /** The same rules on code javac compiled: the depth at each call of a suspending method ({@code ret}). */
    @Test
    void atTheSuspensionsOfFixturesJavacCompiled() {
        MethodNode holding = fixtureMethod("HoldingMonitor", "run");
        assertArrayEquals(new int[] {1, 0}, depthsAtCalls(holding, "ret"), "inside the block, then after it");

        MethodNode tryAround = fixtureMethod("TryAroundSynchronized", "run");
        assertArrayEquals(new int[] {0}, depthsAtCalls(tryAround, "ret"), "after a try around a block");
        assertEquals(0, depthAtCatch(tryAround, "java/lang/RuntimeException"), "in the catch around the block");

        assertArrayEquals(new int[] {1}, depthsAtCalls(fixtureMethod("SynchronizedRet", "lockedBlock"), "ret"));
        assertArrayEquals(new int[] {1}, depthsAtCalls(fixtureMethod("SynchronizedRet", "lockedStep"), "ret"));
        assertArrayEquals(new int[] {0}, depthsAtCalls(fixtureMethod("SynchronizedRet", "run"), "ret"));
    }

    // ------------------------------------------------------------ helpers

    /**
     * Emits {@code synchronized (local lock) { body }} as javac does: the lock kept in local
     * {@code saved}, the exception in {@code saved + 1}, and the two entries of the handler added
     * after those of any try in {@code body}, since the JVM takes the first entry that matches.
     */
    private static void synchronizedBlock(MethodNode m, int lock, int saved, Runnable body) {
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label handlerEnd = new Label();
        Label after = new Label();
        m.visitVarInsn(ALOAD, lock);
        m.visitInsn(DUP);
        m.visitVarInsn(ASTORE, saved);
        m.visitInsn(MONITORENTER);
        m.visitLabel(start);
        body.run();
        m.visitVarInsn(ALOAD, saved);
        m.visitInsn(MONITOREXIT);
        m.visitLabel(end);
        m.visitJumpInsn(GOTO, after);
        m.visitLabel(handler);
        m.visitVarInsn(ASTORE, saved + 1);
        m.visitVarInsn(ALOAD, saved);
        m.visitInsn(MONITOREXIT);
        m.visitLabel(handlerEnd);
        m.visitVarInsn(ALOAD, saved + 1);
        m.visitInsn(ATHROW);
        m.visitLabel(after);
        m.visitTryCatchBlock(start, end, handler, null);
        m.visitTryCatchBlock(handler, handlerEnd, handler, null);
    }

    private static MethodNode method(int access, String descriptor) {
        return new MethodNode(ACC_STATIC | access, "m", descriptor, null, null);
    }

    /** {@code invokestatic T.name()V}. */
    private static void call(MethodNode m, String name) {
        m.visitMethodInsn(INVOKESTATIC, OWNER, name, "()V", false);
    }

    private static MonitorDepth compute(MethodNode m) {
        verify(m);
        return MonitorDepth.compute(m);
    }

    private static Frame<BasicValue>[] verify(MethodNode m) {
        m.maxStack = 4;
        m.maxLocals = 8;
        try {
            return new Analyzer<>(new BasicVerifier()).analyze(OWNER, m);
        } catch (AnalyzerException e) {
            throw new AssertionError("the test's method does not verify", e);
        }
    }

    /** The depth before each instruction of {@code m} that has an opcode, labels left out. */
    private static int[] depths(MethodNode m) {
        MonitorDepth depth = compute(m);
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < m.instructions.size(); i++) {
            if (m.instructions.get(i).getOpcode() >= 0) {
                found.add(depth.before(i));
            }
        }
        return found.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int indexOfCall(MethodNode m, String name) {
        int found = -1;
        for (int i = 0; i < m.instructions.size(); i++) {
            if (m.instructions.get(i) instanceof MethodInsnNode call && call.name.equals(name)) {
                assertEquals(-1, found, "one call of " + name);
                found = i;
            }
        }
        assertTrue(found >= 0, "a call of " + name);
        return found;
    }

    /** The method {@code name} of fixture class {@code simpleName}, as javac compiled it (not its bridge). */
    private static MethodNode fixtureMethod(String simpleName, String name) {
        String resource = "dev/weft/weaver/fixtures/" + simpleName + ".class";
        ClassNode type = new ClassNode();
        try (InputStream in = MonitorDepthTest.class.getClassLoader().getResourceAsStream(resource)) {
            new ClassReader(in).accept(type, ClassReader.EXPAND_FRAMES);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<MethodNode> found = type.methods.stream()
                .filter(m -> m.name.equals(name) && (m.access & ACC_BRIDGE) == 0)
                .toList();
        assertEquals(1, found.size(), simpleName + "." + name);
        return found.get(0);
    }

    /** The depth before each call of a method {@code name}, in code order. */
    private static int[] depthsAtCalls(MethodNode m, String name) {
        MonitorDepth depth = MonitorDepth.compute(m);
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < m.instructions.size(); i++) {
            AbstractInsnNode insn = m.instructions.get(i);
            if (insn instanceof MethodInsnNode call && call.name.equals(name)) {
                found.add(depth.before(i));
            }
        }
        return found.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The depth at the handler of the one catch of {@code type} in {@code m}. */
    private static int depthAtCatch(MethodNode m, String type) {
        List<TryCatchBlockNode> found = m.tryCatchBlocks.stream().filter(t -> type.equals(t.type)).toList();
        assertEquals(1, found.size(), "catches of " + type);
        return MonitorDepth.compute(m).before(m.instructions.indexOf(found.get(0).handler));
    }
}
