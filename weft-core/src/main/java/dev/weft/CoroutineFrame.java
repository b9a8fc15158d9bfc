package dev.weft;

import dev.weft.internal.woven.SourceTerms;

import java.io.Serializable;
import java.lang.reflect.Method;

/**
 * One activation frame of a suspended coroutine, as {@link CoroutineBase#serialize()} returns
 * it and {@link CoroutineBase#deserialize} takes it (thesis figure 3.8).
 *
 * <p>Slots {@code 0 .. localCount-1} are the method's local variables, in the JVM's numbering;
 * slots {@code localCount .. localCount+expressionCount-1} are its operand stack at the call it
 * is suspended in, bottom first, the call's receiver last for an instance call (its arguments
 * belong to the frame above). A slot holding a reference has its value in
 * {@code objectValues} and zero in {@code scalarValues}; a primitive slot has its value in
 * {@code scalarValues} (an {@code int} as itself, a {@code float} or {@code double} as its
 * raw bits, a {@code long} or {@code double} in the first of its two slots) and {@code null}
 * in {@code objectValues}. Slots that are dead at the suspension point hold zero and null.
 *
 * <p>{@link Method} is not serializable: an application that writes frames with Java
 * serialization replaces it by a reference of its own (thesis 5.2).
 */
public class CoroutineFrame implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The method this frame is an activation of. */
    public Method method;
    /**
     * The bytecode index, in the method as compiled (before weaving), of the call this frame is
     * suspended in. Where the weaver inlined a {@code jsr} subroutine of an old class file, the
     * n-th further copy of a call in it (counted in code order, the first keeping the index) is
     * told apart as {@code bci + 65536 * n}.
     */
    public int bci;
    /** How many local variable slots the frame has. */
    public int localCount;
    /** How many operand stack slots the frame holds at its suspension point. */
    public int expressionCount;
    /** The primitive values of all slots, locals first; zero for reference slots. */
    public long[] scalarValues;
    /** The references of all slots, locals first; null for primitive slots. */
    public Object[] objectValues;

    /**
     * A frame; the arrays are taken as they are, not copied.
     *
     * @param method the method of which this is an activation
     * @param bci the suspension site: the call's bytecode index in the method as compiled
     * @param localCount how many local variable slots the frame has
     * @param expressionCount how many operand stack slots it holds at the site
     * @param scalarValues the primitive values of all slots, locals first
     * @param objectValues the references of all slots, locals first
     */
    public CoroutineFrame(Method method, int bci, int localCount, int expressionCount, long[] scalarValues,
            Object[] objectValues) {
        this.method = method;
        this.bci = bci;
        this.localCount = localCount;
        this.expressionCount = expressionCount;
        this.scalarValues = scalarValues;
        this.objectValues = objectValues;
    }

    /**
     * The frame's place as a stack trace shows it: its method's class and name, and where the
     * method's class is woven and its site table registered (as it is once a stream has read
     * the frame), the source file and the line of its suspension site.
     *
     * @return the frame's place
     * @throws NullPointerException if the frame has no method
     */
    public StackTraceElement toStackTraceElement() {
        return SourceTerms.element(method, bci);
    }

    /**
     * How the source names slot {@code slot} (locals first, then the operand stack): {@code this}
     * for slot 0 of an instance method, a local variable's name where the class was compiled
     * with them ({@code javac -g}) and the variable is in scope at the site.
     *
     * @param slot a slot, {@code 0 .. localCount+expressionCount-1}
     * @return the name, or null for a value on the operand stack or a local without a name
     */
    public String slotName(int slot) {
        return SourceTerms.nameOf(method, bci, localCount, slot);
    }

    /**
     * The type the weaver recorded for slot {@code slot} at the frame's site, as Java source
     * writes it: {@code int}, {@code java.lang.String}, {@code long[]}; an int slot whose values
     * may be those of a byte or a char is {@code int}.
     *
     * @param slot a slot, {@code 0 .. localCount+expressionCount-1}
     * @return the type, or null where the slot is dead at the site (it holds no value), is the
     *         second slot of a {@code long} or {@code double}, or the site is not known
     */
    public String slotType(int slot) {
        String descriptor = SourceTerms.typeOf(method, bci, localCount, slot);
        return descriptor == null ? null : sourceType(descriptor);
    }

    /**
     * The value of slot {@code slot}: a primitive boxed as its {@link #slotType} says
     * ({@code Integer} for an int, {@code Boolean} for a boolean, ...), the reference of a
     * reference slot, and null for a dead slot.
     *
     * @param slot a slot, {@code 0 .. localCount+expressionCount-1}
     * @return the value
     */
    public Object slotValue(int slot) {
        String descriptor = SourceTerms.typeOf(method, bci, localCount, slot);
        long raw = scalarValues[slot];
        if (descriptor == null) {
            return objectValues[slot];
        }
        return switch (descriptor.charAt(0)) {
            case 'Z' -> raw != 0;
            case 'B' -> (byte) raw;
            case 'C' -> (char) raw;
            case 'S' -> (short) raw;
            case 'I' -> (int) raw;
            case 'J' -> raw;
            case 'F' -> Float.intBitsToFloat((int) raw);
            case 'D' -> Double.longBitsToDouble(raw);
            default -> objectValues[slot];
        };
    }

    /** {@code descriptor} as Java source writes the type: {@code [Ljava/lang/String;} as {@code java.lang.String[]}. */
    private static String sourceType(String descriptor) {
        return switch (descriptor.charAt(0)) {
            case 'Z' -> "boolean";
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'F' -> "float";
            case 'D' -> "double";
            case '[' -> sourceType(descriptor.substring(1)) + "[]";
            case 'L' -> descriptor.substring(1, descriptor.length() - 1).replace('/', '.');
            default -> descriptor;
        };
    }

    /**
     * The frame's place as a stack trace element shows it, then its site and size:
     * {@code com.example.flows.Counter.run(Counter.java:14) at bci 23 (4 locals, 1 on the stack)}.
     * The source file and line are those the weaver recorded for the site, where the method's
     * class is woven and its table registered; else {@code (Unknown Source)}.
     */
    @Override
    public String toString() {
        String where = method == null ? "<no method>" : SourceTerms.place(method, bci);
        return where + " at bci " + bci + " (" + localCount + " locals, " + expressionCount + " on the stack)";
    }
}
