package dev.weft.contract;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;

/**
 * The second JVM of {@link DebuggerTest}, which a debugger starts: a woven-engine coroutine whose
 * {@code middle} has parameters, locals (one of a generic type) and a suspension between two
 * marked lines, called once to the suspension and once on to its end.
 */
final class DebuggeeMain {

    private DebuggeeMain() {
    }

    /** Runs {@code middle} on the woven engine, where its twin is what runs. */
    static final class Debugged extends AsymCoroutine<String, String> {
        Debugged() {
            super(Engine.WOVEN);
        }

        @Override
        protected String run(String first) {
            String greeting = "hello";
            return middle(greeting, first.length());
        }

        String middle(String greeting, int count) {
            List<String> seen = new ArrayList<>();
            int doubled = count * 2;
            seen.add(greeting); // line:before
            String answer = ret(greeting + " " + doubled);
            seen.add(answer); // line:after
            return answer + " " + greeting + " " + doubled + " " + count + " " + seen;
        }
    }

    public static void main(String[] args) {
        Debugged debugged = new Debugged();
        System.out.println("out " + debugged.call("abc"));
        System.out.println("out " + debugged.call("x"));
    }
}
