package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.Bootstrap;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.StackFrame;
import com.sun.jdi.StringReference;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.Value;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.ClassPrepareRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A real debugger on the woven engine: JDI, the interface under {@code jdb} and the IDEs'
 * debuggers, starts {@link DebuggeeMain} in a second JVM and stops in the twin of
 * {@code middle}, which is what a woven-engine coroutine runs, at a line before its suspension
 * and at one after it, reached when a resume rebuilds the frame. At each it reads the frame's
 * variables by their names, as a user's {@code locals} would: the twin carries the method's
 * local variable table, its fiber unnamed, and the values rebuilt after the resume are the ones
 * saved. The line's locations are in both the original and the twin: a debugger that sets a
 * line's breakpoint at its first location only ({@code jdb}'s {@code stop at}) stops in the
 * original, which the woven engine never runs. {@code Method.arguments()} lists the method's
 * first local variable too, whose slot is the twin's fiber parameter's.
 */
class DebuggerTest {

    private static final long TIMEOUT_MILLIS = 60_000;

    /** What the debugger saw at one stop. */
    private record Stop(String method, boolean synthetic, int line, List<String> arguments, Map<String, String> variables) {
    }

    @Test
    void aBreakpointInATwinShowsTheMethodsVariablesBeforeAndAfterASuspension() throws Exception {
        int before = SourceLines.lineOf(DebuggeeMain.class, "before");
        int after = SourceLines.lineOf(DebuggeeMain.class, "after");
        List<String> methodsOfTheLine = new ArrayList<>();
        List<Stop> stops = new ArrayList<>();
        VirtualMachine vm = launch();
        String output;
        try {
            ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
            prepare.addClassFilter(DebuggeeMain.Debugged.class.getName());
            prepare.enable();
            vm.resume();
            long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
            boolean running = true;
            while (running) {
                EventSet events = vm.eventQueue().remove(Math.max(1, deadline - System.currentTimeMillis()));
                if (events == null) {
                    throw new AssertionError("the debuggee did not end in time; stops so far: " + stops);
                }
                for (Event event : events) {
                    if (event instanceof ClassPrepareEvent prepared) {
                        methodsOfTheLine.addAll(breakInTwin(vm, prepared.referenceType(), before, after));
                    } else if (event instanceof BreakpointEvent hit) {
                        stops.add(stop(hit));
                    } else if (event instanceof VMDisconnectEvent) {
                        running = false;
                    }
                }
                if (running) {
                    resume(events);
                }
            }
        } finally {
            output = drain(vm.process());
            vm.process().destroyForcibly();
        }
        assertTrue(output.contains("out hello 6") && output.contains("out x hello 6 3 [hello, x]"), output);
        assertEquals(List.of("middle", "middle$weft"), methodsOfTheLine,
                "the line is in the method and in its twin, the method first");
        Map<String, String> atBefore = new TreeMap<>(Map.of("greeting", "\"hello\"", "count", "3", "doubled", "6",
                "seen", "java.util.ArrayList"));
        Map<String, String> atAfter = new TreeMap<>(atBefore);
        atAfter.put("answer", "\"x\"");
        // JDI counts as arguments the variables in the slots of the twin's parameters, and the
        // twin's last, the fiber's, is the method's first local slot, seen's: the fiber moves out
        List<String> arguments = List.of("greeting", "count", "seen");
        assertEquals(List.of(new Stop("middle$weft", true, before, arguments, atBefore),
                new Stop("middle$weft", true, after, arguments, atAfter)), stops);
    }

    /** Lets the debuggee go on; once it has ended, there is nothing left to resume. */
    private static void resume(EventSet events) {
        try {
            events.resume();
        } catch (VMDisconnectedException ended) {
            // the debuggee is gone: its disconnection is the next event
        }
    }

    /** Sets a breakpoint at each line in the twin of {@code middle}; the methods that have the first line, in order. */
    private static List<String> breakInTwin(VirtualMachine vm, ReferenceType type, int... lines)
            throws AbsentInformationException {
        Method twin = type.methodsByName("middle$weft").get(0);
        for (int line : lines) {
            for (Location location : twin.locationsOfLine(line)) {
                vm.eventRequestManager().createBreakpointRequest(location).enable();
            }
        }
        return type.locationsOfLine(lines[0]).stream().map(l -> l.method().name()).distinct().toList();
    }

    private static Stop stop(BreakpointEvent hit) throws IncompatibleThreadStateException, AbsentInformationException {
        StackFrame frame = hit.thread().frame(0);
        Method method = frame.location().method();
        Map<String, String> variables = new TreeMap<>();
        frame.getValues(frame.visibleVariables()).forEach((variable, value) -> variables.put(variable.name(), shown(value)));
        List<String> arguments = method.arguments().stream().map(com.sun.jdi.LocalVariable::name).toList();
        return new Stop(method.name(), method.isSynthetic(), frame.location().lineNumber(), arguments, variables);
    }

    /** A value as a debugger shows it: a string quoted, a primitive as itself, another object by its class. */
    private static String shown(Value value) {
        if (value instanceof StringReference string) {
            return "\"" + string.value() + "\"";
        }
        if (value instanceof com.sun.jdi.ObjectReference object) {
            return object.referenceType().name();
        }
        return String.valueOf(value);
    }

    /** {@link DebuggeeMain} in a new JVM with this one's class path, suspended at its start, its debugger JDI's default launcher. */
    private static VirtualMachine launch() throws Exception {
        LaunchingConnector connector = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> arguments = new LinkedHashMap<>(connector.defaultArguments());
        arguments.get("options").setValue("-cp \"" + System.getProperty("java.class.path") + "\"");
        arguments.get("main").setValue(DebuggeeMain.class.getName());
        return connector.launch(arguments);
    }

    /** The debuggee's standard output, to its end, once it has ended. */
    private static String drain(Process process) {
        try (InputStream in = process.getInputStream()) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
