package dev.weft.weaver.agent;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.weaver.fixtures.Series;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;

/**
 * Run by {@link AgentIT} in a JVM started with the weaver agent and no other option: the agent
 * must weave the fixtures as they load and open HotSpot's continuations to Weft.
 */
public final class AgentMain {

    private AgentMain() {
    }

    public static void main(String[] args) throws Exception {
        subclassLoadedBeforeItsSuperclass();
        lambdaBodyOnTheWovenEngine();
        Series reference = new Series();
        Series original = new Series();
        for (int input = 1; input <= 2; input++) {
            reference.call(input);
            System.out.println("original " + original.call(input));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, String> out = new CoroutineOutputStream<>(bytes)) {
            out.writeAsymCoroutine(original);
        }
        AsymCoroutine<Integer, String> copy;
        try (CoroutineInputStream<Integer, String> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = in.readAsymCoroutine(new Series());
        }
        for (int input = 3; input <= 5; input++) {
            String expected = reference.call(input);
            String restored = copy.call(input);
            System.out.println("restored " + restored + (restored.equals(expected) ? " ok" : " MISMATCH " + expected));
        }
    }

    /** A lambda of a class the agent wove, as the body of a woven-engine coroutine, runs as on the native engine. */
    private static void lambdaBodyOnTheWovenEngine() {
        dev.weft.weaver.fixtures.LambdaBodies bodies = new dev.weft.weaver.fixtures.LambdaBodies();
        AsymCoroutine<Integer, String> onNative = bodies.apply("capturing", dev.weft.Engine.NATIVE);
        AsymCoroutine<Integer, String> woven = bodies.apply("capturing", dev.weft.Engine.WOVEN);
        StringBuilder expected = new StringBuilder();
        StringBuilder actual = new StringBuilder();
        for (int input = 1; input <= 4; input++) {
            expected.append(onNative.call(input)).append(' ');
            actual.append(woven.call(input)).append(' ');
        }
        boolean same = expected.toString().equals(actual.toString()) && woven.isFinished();
        System.out.println("lambda body on the woven engine " + actual + (same ? " ok" : " MISMATCH " + expected));
    }

    /** SubStep is loaded, and woven, before BaseStep, which the JVM loads while defining it. */
    private static void subclassLoadedBeforeItsSuperclass() throws Exception {
        Class<?> sub = Class.forName("dev.weft.weaver.fixtures.SubStep");
        @SuppressWarnings("unchecked")
        AsymCoroutine<Integer, String> original = (AsymCoroutine<Integer, String>) sub.getDeclaredConstructor().newInstance();
        System.out.println("original " + original.call(1));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, String> out = new CoroutineOutputStream<>(bytes)) {
            out.writeAsymCoroutine(original);
        }
        AsymCoroutine<Integer, String> copy;
        try (CoroutineInputStream<Integer, String> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes.toByteArray()))) {
            @SuppressWarnings("unchecked")
            AsymCoroutine<Integer, String> target = (AsymCoroutine<Integer, String>) sub.getDeclaredConstructor().newInstance();
            copy = in.readAsymCoroutine(target);
        }
        String result = copy.call(0) + " / " + copy.call(0) + " / " + copy.call(0);
        String expected = "q2 4 / q3 9 / done q30"; // each answer is the question plus the input, 0
        System.out.println("restored " + result + (result.equals(expected) ? " ok" : " MISMATCH " + expected));
    }
}
