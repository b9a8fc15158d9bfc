package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.contract.WeavingContract;
import dev.weft.weaver.rewrite.TwinMethods;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A twin carries its method's local variable tables ({@code LocalVariableTable} and, for
 * generic types, {@code LocalVariableTypeTable}), so that a debugger stopped in a twin shows the
 * method's variables: the same names, types and slots, each range on the twin's copy of the
 * method's code, none covering the code the weaver puts before it (which rebuilds a frame's
 * locals when the engine resumes it), and no name for the fiber. Every fixture with such tables
 * (the test classes are compiled with them).
 */
class TwinLocalVariablesTest {

    @Test
    void everyTwinHasItsMethodsVariablesOnItsOwnCode() throws WeavingException {
        int twins = 0;
        for (String name : WovenReflectionTest.fixtureClassesOfEveryPackage()) {
            ClassNode compiled = read(WovenLoader.original(name));
            ClassNode woven = read(new Weaver().weave(WovenLoader.original(name)));
            for (MethodNode twin : woven.methods) {
                MethodNode original = originalOf(compiled, twin);
                if (original == null) {
                    continue;
                }
                String where = name + "." + twin.name + twin.desc;
                if (original.localVariables == null || original.localVariables.isEmpty()) {
                    assertTrue(twin.localVariables == null || twin.localVariables.isEmpty(), where);
                    continue;
                }
                assertEquals(variables(original), variables(twin), where);
                LineNumberNode first = firstLine(twin);
                int code = first == null ? 0 : twin.instructions.indexOf(first.start); // javac's code has lines but for $deserializeLambda$
                for (LocalVariableNode variable : twin.localVariables) {
                    assertTrue(twin.instructions.indexOf(variable.start) >= code, where + ": " + variable.name
                            + " is in scope before the method's own code");
                }
                twins++;
            }
        }
        assertTrue(twins > 50, "twins with variables: " + twins);
    }

    @Test
    void aGenericVariableKeepsItsSignature() throws WeavingException {
        ClassNode woven = read(new Weaver().weave(WovenLoader.original("dev.weft.weaver.fixtures.shapes.Stepping")));
        MethodNode twin = woven.methods.stream().filter(m -> m.name.equals("twice" + WeavingContract.TWIN_SUFFIX))
                .findFirst().orElseThrow();
        LocalVariableNode value = twin.localVariables.stream().filter(v -> v.name.equals("value")).findFirst().orElseThrow();
        assertEquals("Ljava/lang/Object;", value.desc);
        assertEquals("TT;", value.signature, "its LocalVariableTypeTable entry");
        assertNull(twin.localVariables.stream().filter(v -> v.desc.endsWith("/Fiber;")).findFirst().orElse(null),
                "the fiber has no name");
    }

    private static ClassNode read(byte[] classFile) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        return type;
    }

    /** The method of {@code compiled} whose twin {@code method} is, or null if it is none. */
    private static MethodNode originalOf(ClassNode compiled, MethodNode method) {
        String key = TwinMethods.originalKey(method.name, method.desc);
        if (key.equals(method.name + method.desc)) {
            return null;
        }
        return compiled.methods.stream().filter(m -> (m.name + m.desc).equals(key)).findFirst().orElse(null);
    }

    private static List<String> variables(MethodNode method) {
        return method.localVariables.stream().map(v -> v.index + " " + v.name + " " + v.desc + " " + v.signature).sorted()
                .toList();
    }

    /** The first line number of {@code method}'s own code, which the code the weaver puts before it has none of; null if none. */
    private static LineNumberNode firstLine(MethodNode method) {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof LineNumberNode line) {
                return line;
            }
        }
        return null;
    }
}
