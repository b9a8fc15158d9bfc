package dev.weft.sessions;

import java.util.List;

/**
 * A stored session's frames as an operator reads them ({@link Sessions#stack}): where each frame
 * is suspended, as a stack trace names it ({@code com.example.OrderFlow.run(OrderFlow.java:48)}),
 * and what its variables hold, shown as text. The frames are read as a resume reads them (the
 * row's seal, the stream's filter and limits, each method's code checked) and never run; the
 * values are shown without calling any of the application's code: strings, numbers, booleans,
 * characters, dates and times, enum constants and the JDK's small collections and arrays by
 * their content, any other object by its class and its number of fields ({@link ValueText}).
 * A session whose frames cannot be read here has none, and says why in {@link #refusal()}.
 * Immutable; any thread.
 *
 * @param id      the session's id
 * @param version the step its frames were stored by
 * @param frames  its frames, innermost first, as a stack trace lists them; empty if there are none
 * @param refusal why there are none: its row is not to be trusted, it has ended, or its frames
 *                cannot be read by this node's code (the reader's message); null if they were read
 */
public record SessionStack(String id, long version, List<Frame> frames, String refusal) {

    /**
     * Checks and copies its parts.
     *
     * @throws NullPointerException if {@code id} or {@code frames} is null
     */
    public SessionStack {
        java.util.Objects.requireNonNull(id, "id");
        frames = List.copyOf(frames);
    }

    /**
     * One frame: its place and its live variables, locals first, then the values on its operand
     * stack at the call it is suspended in.
     *
     * @param place     its class, method, source file and line (file and line where its class
     *                  was compiled with them)
     * @param bci       the call's bytecode index in the method as compiled
     * @param variables its slots that hold a value at that call (dead ones and the second half
     *                  of a long or double left out)
     */
    public record Frame(StackTraceElement place, int bci, List<Variable> variables) {

        /**
         * Copies its variables.
         *
         * @throws NullPointerException if {@code place} or {@code variables} is null
         */
        public Frame {
            java.util.Objects.requireNonNull(place, "place");
            variables = List.copyOf(variables);
        }
    }

    /**
     * One slot of a frame and the value it holds.
     *
     * @param slot    its index, the JVM's: locals first, then the operand stack
     * @param name    the source's name for it ({@code this}, a local variable's name), or null for
     *                a value on the operand stack or a local compiled without its name
     * @param type    its type as the weaver recorded it ({@code int}, {@code java.lang.String}),
     *                or null if unknown
     * @param value   what it holds, as {@link ValueText} shows it
     * @param onStack whether it is on the operand stack rather than a local
     */
    public record Variable(int slot, String name, String type, String value, boolean onStack) {
    }
}
