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
}
