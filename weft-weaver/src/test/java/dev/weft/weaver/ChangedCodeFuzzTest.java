package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidObjectException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Changed code is never resumed unsoundly (issue 36): random edits of a woven method's bytecode
 * (variables renamed, retyped, moved to other slots, unnamed, added, read or no longer read after
 * the suspension; values stored again before it; the suspending call made twice; an operand left
 * below it), each class generated here, verifiable, and woven. A coroutine suspended in the
 * first version is written and read on the edited one, accepting changed code, with its sites in
 * the record or given apart ({@link CoroutineOutputStream#sitesOf}), on both engines. After the
 * suspension the method reports every variable it reads, by name; a frame that is accepted must
 * report, for each, the value the saved frame held under that name, of that type, live there,
 * never a value it did not hold. A refusal is an {@link InvalidObjectException}; anything else
 * fails. {@code -Dweft.changedcode.cases=N} runs N cases (a long run: 100,000).
 */
class ChangedCodeFuzzTest {

    private static final int CASES = Integer.getInteger("weft.changedcode.cases", 1_500);
    private static final String CLASS = "fuzz/Edited";
    private static final String ASK = "(Ldev/weft/AsymCoroutine;)Ljava/lang/String;";
    private static final String[] TYPES = {"I", "J", "F", "D", "Ljava/lang/String;"};

    /** One local variable of {@code ask}: its name in the {@code LocalVariableTable} (null: none), its type, slot and value. */
    record Local(String name, String type, int slot, Object value, boolean readAfter) {
        Local with(String newName, String newType, int newSlot, Object newValue, boolean newReadAfter) {
            return new Local(newName, newType, newSlot, newValue, newReadAfter);
        }

        int size() {
            return type.equals("J") || type.equals("D") ? 2 : 1;
        }
    }

    /**
     * One version of {@code ask}: its locals, all stored before the suspension; whether it
     * suspends once before (a second call of {@code ret}); whether an operand lies below the
     * suspending call; and how many statements that change nothing come before it.
     */
    record Version(List<Local> locals, boolean retTwice, boolean operandBelow, int padding) {
    }

    private final Random random = new Random(Long.getLong("weft.changedcode.seed", 36));
    private int nextToken = 1;

    @Test
    void anAcceptedFrameReadsOnlyTheValuesItHeld() throws Exception {
        Map<String, int[]> verdicts = new TreeMap<>(); // per edit: accepted, refused
        for (int c = 0; c < CASES; c++) {
            Version first = firstVersion();
            List<String> edits = new ArrayList<>();
            Version edited = edited(first, edits);
            Engine engine = c % 2 == 0 ? Engine.WOVEN : Engine.NATIVE;
            boolean sitesApart = c % 4 >= 2;
            String caseName = "case " + c + " (" + engine + ", sites " + (sitesApart ? "apart" : "in the record")
                    + ", edits " + edits + "): " + first + " -> " + edited;
            boolean accepted = runCase(first, edited, engine, sitesApart, caseName);
            for (String edit : edits) {
                verdicts.computeIfAbsent(edit, e -> new int[2])[accepted ? 0 : 1]++;
            }
        }
        StringBuilder counts = new StringBuilder("changed-code fuzz, " + CASES + " cases; per edit, accepted/refused:");
        verdicts.forEach((edit, n) -> counts.append("\n  ").append(edit).append(": ").append(n[0]).append('/')
                .append(n[1]));
        System.out.println(counts);
        for (String sound : List.of("rename a dead variable", "store again before", "pad before", "slots moved")) {
            int[] n = verdicts.get(sound);
            assertTrue(n == null || n[0] > 0, "an edit that changes nothing live is accepted at times: " + counts);
        }
        for (String unsound : List.of("ret twice")) {
            int[] n = verdicts.get(unsound);
            assertTrue(n == null || n[0] == 0, "an edit that leaves the site ambiguous is always refused: " + counts);
        }
    }

    /**
     * Sites given apart are input from wherever the reader keeps them: a text cut, grown or with
     * bytes changed is refused with an {@link java.io.IOException} naming the method, or read
     * (what it then claims is checked as any frame is), never another exception.
     */
    @Test
    void changedTextsOfSitesAreRefusedOrReadNeverAnotherException() throws Exception {
        Map<String, Integer> outcomes = new TreeMap<>();
        java.util.Base64.Encoder base64 = java.util.Base64.getUrlEncoder().withoutPadding();
        for (int c = 0; c < CASES; c++) {
            Version first = firstVersion();
            Version edited = new Version(first.locals(), false, first.operandBelow(), 1); // ask changed, fits
            ClassLoader firstCode = loaderOf("first", first);
            Method ask = firstCode.loadClass(CLASS.replace('/', '.')).getDeclaredMethod("ask",
                    dev.weft.AsymCoroutine.class);
            String sites = CoroutineOutputStream.sitesOf(ask);
            String changed = c % 3 == 0 ? base64.encodeToString(mutated(java.util.Base64.getUrlDecoder().decode(sites)))
                    : SitesText.textOf(mutated(SitesText.bytesOf(sites)));
            Engine engine = c % 2 == 0 ? Engine.WOVEN : Engine.NATIVE;
            String outcome;
            try {
                AsymCoroutine<String, String> resumed = readApart(first, edited, engine, firstCode, changed);
                outcome = "read";
                try {
                    resumed.call("answer");
                } catch (RuntimeException thrown) {
                    outcome = "read, then threw " + thrown.getClass().getSimpleName();
                }
            } catch (java.io.IOException refused) {
                assertTrue(refused.getMessage().contains("fuzz.Edited.ask("), "case " + c + ": " + refused);
                outcome = refused.getClass().getSimpleName();
            }
            outcomes.merge(outcome, 1, Integer::sum);
        }
        System.out.println("changed texts of sites, " + CASES + " cases: " + outcomes);
        assertTrue(outcomes.getOrDefault("StreamCorruptedException", 0) > 0, outcomes.toString());
    }

    /** {@code bytes} with one to four bytes changed, or cut, or grown. */
    private byte[] mutated(byte[] bytes) {
        switch (random.nextInt(4)) {
            case 0 -> {
                return java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
            }
            case 1 -> {
                byte[] grown = java.util.Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(8));
                for (int i = bytes.length; i < grown.length; i++) {
                    grown[i] = (byte) random.nextInt(256);
                }
                return grown;
            }
            default -> {
                byte[] changed = bytes.clone();
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    changed[random.nextInt(changed.length)] = (byte) random.nextInt(256);
                }
                return changed;
            }
        }
    }

    /** A coroutine of {@code first}, written without sites, read on {@code edited} with {@code askSites} as ask's former sites. */
    private static AsymCoroutine<String, String> readApart(Version first, Version edited, Engine engine,
            ClassLoader firstCode, String askSites) throws Exception {
        @SuppressWarnings("unchecked")
        AsymRunnable<String, String> body = (AsymRunnable<String, String>) firstCode.loadClass(CLASS.replace('/', '.'))
                .getConstructor().newInstance();
        AsymCoroutine<String, String> co = new AsymCoroutine<>(body, engine);
        co.call("x");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<String, String> out = new CoroutineOutputStream<>(bytes)) {
            out.writeAsymCoroutine(co);
        }
        try (CoroutineInputStream<String, String> in = new CoroutineInputStream<String, String>(
                new ByteArrayInputStream(bytes.toByteArray()), loaderOf("edited", edited))
                .acceptChangedCode((className, method, fingerprint) -> method.startsWith("ask(") ? askSites : null)) {
            return in.readAsymCoroutine(new AsymCoroutine<>(engine));
        }
    }

    /** Writes a coroutine of {@code first} suspended, reads it on {@code edited}; whether it was accepted (checked). */
    private boolean runCase(Version first, Version edited, Engine engine, boolean sitesApart, String caseName)
            throws Exception {
        ClassLoader firstCode = loaderOf("first", first);
        ClassLoader editedCode = loaderOf("edited", edited);
        @SuppressWarnings("unchecked")
        AsymRunnable<String, String> body = (AsymRunnable<String, String>) firstCode.loadClass(CLASS.replace('/', '.'))
                .getConstructor().newInstance();
        AsymCoroutine<String, String> co = new AsymCoroutine<>(body, engine);
        if (first.retTwice()) {
            assertEquals("before", co.call("x"), caseName);
        }
        assertEquals("asked", co.call("x"), caseName);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<String, String> out = new CoroutineOutputStream<>(bytes)) {
            if (!sitesApart) {
                out.recordSites();
            }
            out.writeAsymCoroutine(co);
        }
        Map<String, String> former = new HashMap<>();
        for (Method method : firstCode.loadClass(CLASS.replace('/', '.')).getDeclaredMethods()) {
            String sites = CoroutineOutputStream.sitesOf(method);
            if (sites != null) {
                former.put(method.getName() + "\t" + CoroutineOutputStream.fingerprintOf(method), sites);
            }
        }
        AsymCoroutine<String, String> resumed;
        try (CoroutineInputStream<String, String> in = new CoroutineInputStream<>(new ByteArrayInputStream(
                bytes.toByteArray()), editedCode)) {
            if (sitesApart) {
                in.acceptChangedCode((className, method, fingerprint) -> former.get(method.substring(0,
                        method.indexOf('(')) + "\t" + fingerprint));
            } else {
                in.acceptChangedCode();
            }
            resumed = in.readAsymCoroutine(new AsymCoroutine<>(engine));
        } catch (InvalidObjectException refused) {
            assertTrue(refused.getMessage().startsWith("cannot restore a frame of "), caseName + ": " + refused);
            return false;
        }
        String report = resumed.call("answer");
        checkReport(first, edited, report, caseName);
        return true;
    }

    /** Each {@code name=value;} the edited code reported must be a value the first version held, live, under that name. */
    private static void checkReport(Version first, Version edited, String report, String caseName) {
        Map<String, Local> held = new HashMap<>();
        for (Local local : first.locals()) {
            if (local.name() != null && local.readAfter()) {
                held.put(local.name(), local);
            }
        }
        StringBuilder expected = new StringBuilder();
        for (Local local : edited.locals()) {
            if (!local.readAfter()) {
                continue;
            }
            Local was = local.name() == null ? null : held.get(local.name());
            if (was == null || !was.type().equals(local.type())) {
                fail(caseName + ": accepted, and the new code reads " + label(local) + ", which the saved frame did not"
                        + " hold live under that name and type; it reported " + report);
            }
            expected.append(label(local)).append('=').append(was.value()).append(';');
        }
        assertEquals(expected.toString(), report, caseName);
    }

    private static String label(Local local) {
        return local.name() != null ? local.name() : "#" + local.slot();
    }

    // ---------------------------------------------------------------- versions

    private Version firstVersion() {
        int count = 1 + random.nextInt(5);
        List<Local> locals = new ArrayList<>();
        int slot = 1; // slot 0: self
        for (int i = 0; i < count; i++) {
            String type = TYPES[random.nextInt(TYPES.length)];
            Local local = new Local("v" + i, type, slot, token(type), random.nextInt(3) > 0);
            locals.add(local);
            slot += local.size();
        }
        return new Version(locals, false, random.nextInt(4) == 0, 0);
    }

    private Object token(String type) {
        int n = nextToken++;
        return switch (type) {
            case "I" -> 1000 + n;
            case "J" -> 1_000_000_000_000L + n;
            case "F" -> n + 0.5f;
            case "D" -> n + 0.25;
            default -> "s" + n;
        };
    }

    /** {@code first} with one to three random edits, each named in {@code edits}. */
    private Version edited(Version first, List<String> edits) {
        List<Local> locals = new ArrayList<>(first.locals());
        boolean retTwice = false;
        boolean operandBelow = first.operandBelow();
        int padding = 0;
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            int pick = random.nextInt(locals.size());
            Local local = locals.get(pick);
            switch (random.nextInt(11)) {
                case 0 -> {
                    edits.add("read after");
                    locals.set(pick, local.with(local.name(), local.type(), local.slot(), local.value(), true));
                }
                case 1 -> {
                    edits.add("no longer read after");
                    locals.set(pick, local.with(local.name(), local.type(), local.slot(), local.value(), false));
                }
                case 2 -> {
                    edits.add(local.readAfter() ? "rename a live variable" : "rename a dead variable");
                    locals.set(pick, local.with("w" + nextToken++, local.type(), local.slot(), local.value(),
                            local.readAfter()));
                }
                case 3 -> {
                    Local other = locals.get(random.nextInt(locals.size()));
                    edits.add("swap names");
                    locals.set(pick, local.with(other.name(), local.type(), local.slot(), local.value(),
                            local.readAfter()));
                    locals.set(locals.indexOf(other), other.with(local.name(), other.type(), other.slot(),
                            other.value(), other.readAfter()));
                }
                case 4 -> {
                    String type = TYPES[random.nextInt(TYPES.length)];
                    edits.add("retype");
                    locals.set(pick, local.with(local.name(), type, local.slot(), token(type), local.readAfter()));
                }
                case 5 -> {
                    edits.add("unnamed");
                    locals.set(pick, local.with(null, local.type(), local.slot(), local.value(), local.readAfter()));
                }
                case 6 -> {
                    String type = TYPES[random.nextInt(TYPES.length)];
                    boolean reused = random.nextBoolean();
                    edits.add(reused ? "add a variable named as another" : "add a variable");
                    locals.add(new Local(reused ? local.name() : "n" + nextToken++, type, 0, token(type),
                            random.nextBoolean()));
                    if (reused) {
                        locals.set(pick, local.with(null, local.type(), local.slot(), local.value(), local.readAfter()));
                    }
                }
                case 7 -> {
                    edits.add("store again before");
                    locals.set(pick, local.with(local.name(), local.type(), local.slot(), token(local.type()),
                            local.readAfter()));
                }
                case 8 -> {
                    edits.add("slots moved");
                    java.util.Collections.shuffle(locals, random);
                }
                case 9 -> {
                    edits.add("ret twice");
                    retTwice = true;
                }
                default -> {
                    if (random.nextBoolean()) {
                        edits.add("operand below toggled");
                        operandBelow = !operandBelow;
                    } else {
                        edits.add("pad before");
                        padding++;
                    }
                }
            }
        }
        return new Version(withSlots(locals), retTwice, operandBelow, padding);
    }

    /** {@code locals} given consecutive slots in their order, after {@code self}. */
    private static List<Local> withSlots(List<Local> locals) {
        List<Local> placed = new ArrayList<>();
        int slot = 1;
        for (Local local : locals) {
            placed.add(local.with(local.name(), local.type(), slot, local.value(), local.readAfter()));
            slot += local.size();
        }
        return placed;
    }

    // ---------------------------------------------------------------- classes

    private static ClassLoader loaderOf(String label, Version version) throws WeavingException {
        byte[] woven = new Weaver().weave(classOf(version));
        return new ClassLoader("changed-code-" + label, ChangedCodeFuzzTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (!name.equals(CLASS.replace('/', '.'))) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, woven, 0, woven.length);
            }
        };
    }

    /**
     * The class of {@code version}, as javac would compile it with {@code -g}:
     * <pre>
     * public class Edited implements AsymRunnable, Serializable {
     *     public Object run(AsymCoroutine self, Object first) { return ask(self); }
     *
     *     static String ask(AsymCoroutine self) {
     *         TYPE v0 = VALUE; ...                          // each local, in its slot
     *         System.nanoTime(); ...                        // padding
     *         self.ret("before");                           // retTwice
     *         ["below" +] (String) self.ret("asked");       // the site; operandBelow: "below" under it
     *         return new StringBuilder().append("v0=").append(v0).append(';')...toString();  // each read after
     *     }
     * }
     * </pre>
     */
    private static byte[] classOf(Version version) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, CLASS, null, "java/lang/Object",
                new String[] {"dev/weft/AsymRunnable", "java/io/Serializable"});
        cw.visitSource("Edited.java", null);
        cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, "serialVersionUID", "J", null, 1L)
                .visitEnd();
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor run = cw.visitMethod(Opcodes.ACC_PUBLIC, "run",
                "(Ldev/weft/AsymCoroutine;Ljava/lang/Object;)Ljava/lang/Object;", null, null);
        run.visitCode();
        run.visitVarInsn(Opcodes.ALOAD, 1);
        run.visitMethodInsn(Opcodes.INVOKESTATIC, CLASS, "ask", ASK, false);
        run.visitInsn(Opcodes.ARETURN);
        run.visitMaxs(0, 0);
        run.visitEnd();
        writeAsk(cw, version);
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void writeAsk(ClassWriter cw, Version version) {
        MethodVisitor ask = cw.visitMethod(Opcodes.ACC_STATIC, "ask", ASK, null, null);
        ask.visitCode();
        Label start = new Label();
        Label end = new Label();
        ask.visitLabel(start);
        int line = 10;
        for (Local local : version.locals()) {
            lineAt(ask, line++);
            ask.visitLdcInsn(local.value());
            ask.visitVarInsn(Type.getType(local.type()).getOpcode(Opcodes.ISTORE), local.slot());
        }
        for (int p = 0; p < version.padding(); p++) {
            lineAt(ask, line++);
            ask.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "nanoTime", "()J", false);
            ask.visitInsn(Opcodes.POP2);
        }
        if (version.retTwice()) {
            lineAt(ask, line++);
            ret(ask, "before");
            ask.visitInsn(Opcodes.POP);
        }
        lineAt(ask, line++);
        if (version.operandBelow()) {
            ask.visitLdcInsn("below");
        }
        ret(ask, "asked");
        ask.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/String");
        if (version.operandBelow()) {
            ask.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "concat",
                    "(Ljava/lang/String;)Ljava/lang/String;", false);
        }
        ask.visitInsn(Opcodes.POP);
        lineAt(ask, line);
        ask.visitTypeInsn(Opcodes.NEW, "java/lang/StringBuilder");
        ask.visitInsn(Opcodes.DUP);
        ask.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/StringBuilder", "<init>", "()V", false);
        for (Local local : version.locals()) {
            if (local.readAfter()) {
                append(ask, label(local) + "=", "Ljava/lang/String;");
                ask.visitVarInsn(Type.getType(local.type()).getOpcode(Opcodes.ILOAD), local.slot());
                append(ask, null, local.type());
                append(ask, ";", "Ljava/lang/String;");
            }
        }
        ask.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/StringBuilder", "toString", "()Ljava/lang/String;", false);
        ask.visitInsn(Opcodes.ARETURN);
        ask.visitLabel(end);
        ask.visitLocalVariable("self", "Ldev/weft/AsymCoroutine;", null, start, end, 0);
        for (Local local : version.locals()) {
            if (local.name() != null) {
                ask.visitLocalVariable(local.name(), local.type(), null, start, end, local.slot());
            }
        }
        ask.visitMaxs(0, 0);
        ask.visitEnd();
    }

    private static void lineAt(MethodVisitor mv, int line) {
        Label here = new Label();
        mv.visitLabel(here);
        mv.visitLineNumber(line, here);
    }

    private static void ret(MethodVisitor mv, String value) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitLdcInsn(value);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "dev/weft/AsymCoroutine", "ret", "(Ljava/lang/Object;)Ljava/lang/Object;",
                false);
    }

    /** Appends {@code constant}, or the value of {@code type} on the stack if it is null, to the builder below it. */
    private static void append(MethodVisitor mv, String constant, String type) {
        if (constant != null) {
            mv.visitLdcInsn(constant);
        }
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/StringBuilder", "append", "(" + type
                + ")Ljava/lang/StringBuilder;", false);
    }
}
