package dev.weft.weaver.analysis;

import dev.weft.internal.contract.SiteTable;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * What the source calls the place of each instruction of a method: its line, from the
 * {@code LineNumberTable}, and the names of its locals, from the {@code LocalVariableTable}.
 * Either table may be missing (compiled without {@code -g}), and then so is what it gives.
 */
public final class SourceNames {

    /** The line in effect before each instruction, or {@link SiteTable#NO_LINE}. */
    private final int[] lines;
    /** The method's local variable entries, as instruction index ranges. */
    private final List<Scope> scopes;

    private record Scope(int slot, String name, int start, int end) {
    }

    private SourceNames(int[] lines, List<Scope> scopes) {
        this.lines = lines;
        this.scopes = scopes;
    }

    public static SourceNames compute(MethodNode method) {
        InsnList insns = method.instructions;
        int[] lines = new int[insns.size()];
        int line = SiteTable.NO_LINE;
        for (int i = 0; i < lines.length; i++) {
            AbstractInsnNode insn = insns.get(i);
            if (insn instanceof LineNumberNode number) {
                line = number.line; // in effect from here on, as the JVM maps a bytecode index to the entry at or before it
            }
            lines[i] = line;
        }
        List<Scope> scopes = new ArrayList<>();
        if (method.localVariables != null) {
            for (LocalVariableNode variable : method.localVariables) {
                if (SiteTable.isIdentifier(variable.name)) {
                    scopes.add(new Scope(variable.index, variable.name, insns.indexOf(variable.start),
                            insns.indexOf(variable.end)));
                }
            }
        }
        return new SourceNames(lines, scopes);
    }

    /** The source line in effect at instruction {@code index}, or {@link SiteTable#NO_LINE}. */
    public int lineAt(int index) {
        return lines[index];
    }

    /**
     * The names of the first {@code count} locals at instruction {@code index}: for each, the name
     * of an entry of the {@code LocalVariableTable} whose range covers the instruction, or the
     * empty string; an empty list if no local has a name there.
     */
    public List<String> namesAt(int index, int count) {
        List<String> names = new ArrayList<>(count);
        boolean any = false;
        for (int slot = 0; slot < count; slot++) {
            String name = "";
            for (Scope scope : scopes) {
                if (scope.slot == slot && scope.start <= index && index < scope.end) {
                    name = scope.name;
                    break;
                }
            }
            names.add(name);
            any |= !name.isEmpty();
        }
        return any ? names : List.of();
    }
}
