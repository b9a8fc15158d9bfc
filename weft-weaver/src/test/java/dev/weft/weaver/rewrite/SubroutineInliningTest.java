package dev.weft.weaver.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.analysis.OriginalOffsets;
import dev.weft.weaver.fixtures.OldClassFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicVerifier;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * {@link SubroutineInlining} on a version-49 class generated here, whose static methods use
 * {@code jsr}/{@code ret} as javac compiled {@code finally} before Java 6: after the pass no
 * method has a subroutine, each copy of a call has the site id the javadoc promises, the class
 * passes ASM's checks with a {@link BasicVerifier}, and each method returns what it returned
 * before, in a class loader of its own.
 */
class SubroutineInliningTest implements Opcodes {

    private static final String NAME = "gen/Subroutines";
    private static final int STRIDE = SubroutineInlining.COPY_STRIDE;
    private static final int[] INPUTS = {-3, 0, 1, 2, 5, 7};

    /** What each generated method computes, written in Java. */
    private static final Map<String, IntUnaryOperator> MEANING = Map.of(
            "twice", SubroutineInliningTest::twice,
            "nested", SubroutineInliningTest::nested,
            "loops", SubroutineInliningTest::loops);

    @Test
    void noMethodKeepsASubroutineAndOneWithoutAnyIsLeftAsItIs() {
        ClassNode type = read(generate());
        MethodNode step = method(type, "step");
        SubroutineInlining.apply(type, siteIds(type));

        for (MethodNode m : type.methods) {
            for (AbstractInsnNode insn : m.instructions) {
                assertFalse(insn.getOpcode() == JSR || insn.getOpcode() == RET, m.name + " has no jsr or ret");
                assertFalse(insn instanceof FrameNode, m.name + " has no frame");
            }
        }
        assertSame(step, method(type, "step"), "a method without subroutines is not replaced");
    }

    /** A call outside any subroutine keeps its id; the n-th copy of a call inside one, in code order, gets id + 65536 n. */
    @Test
    void eachCopyOfACallInsideASubroutineGetsASiteIdOfItsOwn() {
        ClassNode type = read(generate());
        Map<AbstractInsnNode, Integer> ids = siteIds(type);
        SubroutineInlining.apply(type, ids);

        // twice: step before the try (10), step in the finally subroutine (20), which two paths call
        assertEquals(List.of(10, 20, 20 + STRIDE), idsOfCalls(type, "twice", "step", ids));
        // nested: main calls A twice; A calls B, which calls twist (20), then calls step (10)
        assertEquals(List.of(10, 10 + STRIDE), idsOfCalls(type, "nested", "step", ids));
        assertEquals(List.of(20, 20 + STRIDE), idsOfCalls(type, "nested", "twist", ids));
        // loops: one jsr, in a loop, to a subroutine whose ret is inside a loop of its own
        assertEquals(List.of(10), idsOfCalls(type, "loops", "step", ids));
        for (MethodNode m : type.methods) {
            List<Integer> all = idsOfCalls(type, m.name, null, ids);
            assertEquals(all.size(), new HashSet<>(all).size(), "site ids unique in " + m.name + ": " + all);
        }
    }

    /**
     * On a fixture with real bytecode indexes ({@code OriginalOffsets}, as the weaver numbers
     * calls): OldFinally's finally subroutine, called from three places, holds the marked call.
     */
    @Test
    void theCallInAFinallyCalledFromThreePlacesGetsThreeSiteIds() {
        OldClassFiles.Generated old = OldClassFiles.finallyBySubroutine();
        ClassReader reader = new ClassReader(old.classFile());
        ClassNode type = new ClassNode();
        reader.accept(type, ClassReader.EXPAND_FRAMES);
        Map<AbstractInsnNode, Integer> ids = OriginalOffsets.of(reader, type);
        SubroutineInlining.apply(type, ids);

        int mark = old.markedBci();
        List<Integer> copies = idsOfCalls(type, "run", null, ids).stream().filter(id -> (id & 0xFFFF) == mark).toList();
        assertEquals(List.of(mark, mark + STRIDE, mark + 2 * STRIDE), copies);
    }

    @Test
    void theInlinedClassPassesAsmChecksWithABasicVerifier() throws AnalyzerException {
        ClassNode type = read(generate());
        SubroutineInlining.apply(type, siteIds(type));
        byte[] inlined = write(type);

        new ClassReader(inlined).accept(new CheckClassAdapter(new ClassWriter(0), true), 0);
        ClassNode back = read(inlined);
        for (MethodNode m : back.methods) {
            new Analyzer<>(new BasicVerifier()).analyze(back.name, m);
        }
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(inlined), getClass().getClassLoader(), false, new PrintWriter(problems));
        assertEquals("", problems.toString());
    }

    /** Each method returns, on every input, what the original returns, and what its Java meaning says. */
    @Test
    void theInlinedMethodsComputeWhatTheOriginalsDo() throws ReflectiveOperationException {
        byte[] original = generate();
        ClassNode type = read(original);
        SubroutineInlining.apply(type, siteIds(type));
        Class<?> before = define(original);
        Class<?> after = define(write(type));

        for (Map.Entry<String, IntUnaryOperator> e : MEANING.entrySet()) {
            Method was = before.getMethod(e.getKey(), int.class);
            Method is = after.getMethod(e.getKey(), int.class);
            for (int input : INPUTS) {
                int expected = e.getValue().applyAsInt(input);
                assertEquals(expected, invoke(was, input), "the original " + e.getKey() + "(" + input + ")");
                assertEquals(expected, invoke(is, input), "the inlined " + e.getKey() + "(" + input + ")");
            }
        }
    }

    @Test
    void theFramesOfAnInlinedMethodAreDropped() {
        ClassNode type = read(generate());
        MethodNode loops = method(type, "loops");
        for (AbstractInsnNode insn : loops.instructions.toArray()) {
            if (insn instanceof LabelNode) {
                loops.instructions.insert(insn, new FrameNode(F_SAME, 0, null, 0, null));
            }
        }
        SubroutineInlining.apply(type, siteIds(type));

        for (AbstractInsnNode insn : method(type, "loops").instructions) {
            assertFalse(insn instanceof FrameNode, "a frame left in loops");
        }
    }

    /** A subroutine that calls itself cannot be inlined: its method, calls and site ids stay as they were. */
    @Test
    void aMethodWhoseSubroutineCallsItselfIsLeftAsItIs() {
        ClassNode type = read(OldClassFiles.recursiveSubroutine().classFile());
        MethodNode run = method(type, "run");
        Map<AbstractInsnNode, Integer> ids = siteIds(type);
        Map<AbstractInsnNode, Integer> idsBefore = new HashMap<>(ids);
        SubroutineInlining.apply(type, ids);

        assertSame(run, method(type, "run"));
        assertTrue(run.instructions.size() > 0 && containsOpcode(run, JSR), "its jsr is still there");
        assertEquals(idsBefore, ids);
    }

    // ------------------------------------------------------------ the generated class

    private static int step(int x) {
        return 3 * x + 7;
    }

    private static int twist(int x) {
        return (x ^ 21) - 2;
    }

    /** {@code acc = step(x); try { acc /= x; } catch (anything) { finally; return -acc; } finally; return acc}, the finally being {@code acc = step(acc)}. */
    private static int twice(int x) {
        int acc = step(x);
        if (x == 0) {
            return -step(acc);
        }
        return step(acc / x);
    }

    /** A = {@code acc *= 2; B; acc = step(acc)}; B = {@code acc = twist(acc)}; the method: A, A. */
    private static int nested(int x) {
        int acc = x;
        for (int a = 0; a < 2; a++) {
            acc = step(twist(acc * 2));
        }
        return acc;
    }

    /** In round i of n, the subroutine applies step to the total i + 1 times. */
    private static int loops(int n) {
        int acc = 1;
        for (int i = 0; i < n; i++) {
            for (int k = 0; k <= i; k++) {
                acc = step(acc);
            }
        }
        return acc;
    }

    /**
     * {@code gen.Subroutines}, version 49, with static methods {@code step} and {@code twist}
     * (no subroutines) and {@code twice}, {@code nested} and {@code loops}, whose meaning the
     * private methods of the same names state.
     */
    private static byte[] generate() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(V1_5, ACC_PUBLIC | ACC_SUPER, NAME, null, "java/lang/Object", null);
        MethodVisitor step = begin(cw, "step");
        step.visitInsn(ICONST_3);
        step.visitVarInsn(ILOAD, 0);
        step.visitInsn(IMUL);
        step.visitIntInsn(BIPUSH, 7);
        step.visitInsn(IADD);
        step.visitInsn(IRETURN);
        end(step);
        MethodVisitor twist = begin(cw, "twist");
        twist.visitVarInsn(ILOAD, 0);
        twist.visitIntInsn(BIPUSH, 21);
        twist.visitInsn(IXOR);
        twist.visitInsn(ICONST_2);
        twist.visitInsn(ISUB);
        twist.visitInsn(IRETURN);
        end(twist);
        emitTwice(begin(cw, "twice"));
        emitNested(begin(cw, "nested"));
        emitLoops(begin(cw, "loops"));
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** Locals: 0 x, 1 acc, 2 the exception, 3 the finally's return address. */
    private static void emitTwice(MethodVisitor mv) {
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label fin = new Label();
        mv.visitTryCatchBlock(start, end, handler, null);
        mv.visitVarInsn(ILOAD, 0);
        callStep(mv);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitLabel(start);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitVarInsn(ILOAD, 0);
        mv.visitInsn(IDIV);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitLabel(end);
        mv.visitJumpInsn(JSR, fin);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitInsn(IRETURN);
        mv.visitLabel(handler);
        mv.visitVarInsn(ASTORE, 2);
        mv.visitJumpInsn(JSR, fin);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitInsn(INEG);
        mv.visitInsn(IRETURN);
        mv.visitLabel(fin);
        mv.visitVarInsn(ASTORE, 3);
        mv.visitVarInsn(ILOAD, 1);
        callStep(mv);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitVarInsn(RET, 3);
        end(mv);
    }

    /** Locals: 0 x, 1 acc, 2 A's return address, 3 B's. */
    private static void emitNested(MethodVisitor mv) {
        Label a = new Label();
        Label b = new Label();
        mv.visitVarInsn(ILOAD, 0);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitJumpInsn(JSR, a);
        mv.visitJumpInsn(JSR, a);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitInsn(IRETURN);
        mv.visitLabel(a);
        mv.visitVarInsn(ASTORE, 2);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitInsn(ICONST_2);
        mv.visitInsn(IMUL);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitJumpInsn(JSR, b);
        mv.visitVarInsn(ILOAD, 1);
        callStep(mv);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitVarInsn(RET, 2);
        mv.visitLabel(b);
        mv.visitVarInsn(ASTORE, 3);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitMethodInsn(INVOKESTATIC, NAME, "twist", "(I)I", false);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitVarInsn(RET, 3);
        end(mv);
    }

    /** Locals: 0 n, 1 acc, 2 i, 3 the return address, 4 k, the subroutine's own counter. */
    private static void emitLoops(MethodVisitor mv) {
        Label loop = new Label();
        Label done = new Label();
        Label sub = new Label();
        Label inner = new Label();
        Label more = new Label();
        mv.visitInsn(ICONST_1);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, 2);
        mv.visitLabel(loop);
        mv.visitVarInsn(ILOAD, 2);
        mv.visitVarInsn(ILOAD, 0);
        mv.visitJumpInsn(IF_ICMPGE, done);
        mv.visitJumpInsn(JSR, sub);
        mv.visitIincInsn(2, 1);
        mv.visitJumpInsn(GOTO, loop);
        mv.visitLabel(done);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitInsn(IRETURN);
        mv.visitLabel(sub);
        mv.visitVarInsn(ASTORE, 3);
        mv.visitVarInsn(ILOAD, 2);
        mv.visitVarInsn(ISTORE, 4);
        mv.visitLabel(inner);
        mv.visitVarInsn(ILOAD, 1);
        callStep(mv);
        mv.visitVarInsn(ISTORE, 1);
        mv.visitVarInsn(ILOAD, 4);
        mv.visitJumpInsn(IFGT, more);
        mv.visitVarInsn(RET, 3); // leaves the subroutine from inside its loop
        mv.visitLabel(more);
        mv.visitIincInsn(4, -1);
        mv.visitJumpInsn(GOTO, inner);
        end(mv);
    }

    private static MethodVisitor begin(ClassWriter cw, String name) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, name, "(I)I", null, null);
        mv.visitCode();
        return mv;
    }

    private static void end(MethodVisitor mv) {
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static void callStep(MethodVisitor mv) {
        mv.visitMethodInsn(INVOKESTATIC, NAME, "step", "(I)I", false);
    }

    // ------------------------------------------------------------ helpers

    private static ClassNode read(byte[] classFile) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, ClassReader.EXPAND_FRAMES);
        return type;
    }

    private static byte[] write(ClassNode type) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        type.accept(cw);
        return cw.toByteArray();
    }

    /**
     * Stand-ins for the original bytecode indexes the weaver passes: in each method, the k-th
     * call in code order gets {@code 10 k}, counting from 1.
     */
    private static Map<AbstractInsnNode, Integer> siteIds(ClassNode type) {
        Map<AbstractInsnNode, Integer> ids = new HashMap<>();
        for (MethodNode m : type.methods) {
            int k = 0;
            for (AbstractInsnNode insn : m.instructions) {
                if (insn instanceof MethodInsnNode) {
                    ids.put(insn, 10 * ++k);
                }
            }
        }
        return ids;
    }

    /** The site ids of the calls of {@code callee} (of any method, if null) in method {@code name}, in code order. */
    private static List<Integer> idsOfCalls(ClassNode type, String name, String callee, Map<AbstractInsnNode, Integer> ids) {
        List<Integer> found = new ArrayList<>();
        for (AbstractInsnNode insn : method(type, name).instructions) {
            if (insn instanceof MethodInsnNode call && (callee == null || call.name.equals(callee))) {
                Integer id = ids.get(call);
                assertNotNull(id, "a site id for a call of " + call.name + " in " + name);
                found.add(id);
            }
        }
        return found;
    }

    private static MethodNode method(ClassNode type, String name) {
        List<MethodNode> found = type.methods.stream().filter(m -> m.name.equals(name)).toList();
        assertEquals(1, found.size(), name);
        return found.get(0);
    }

    private static boolean containsOpcode(MethodNode m, int opcode) {
        for (AbstractInsnNode insn : m.instructions) {
            if (insn.getOpcode() == opcode) {
                return true;
            }
        }
        return false;
    }

    /** Defines {@code classFile} in a class loader of its own, which sees no class but the JDK's. */
    private static Class<?> define(byte[] classFile) {
        return new ClassLoader(null) {
            Class<?> define() {
                return defineClass(null, classFile, 0, classFile.length);
            }
        }.define();
    }

    private static int invoke(Method method, int input) throws IllegalAccessException {
        try {
            return (int) method.invoke(null, input);
        } catch (InvocationTargetException e) {
            throw new AssertionError(method.getName() + "(" + input + ") threw", e.getCause());
        }
    }
}
