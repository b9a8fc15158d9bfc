package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Refusals speak in source terms: a frame as {@code Class.method(File.java:line)}, with the line
 * of the call it is suspended in; a local by its name, slot 0 of an instance method as
 * {@code this}; the JVM's terms (bci, slot) after them; and a class that is not woven with how to
 * weave it. The lines are found from marker comments in this file, not written down.
 */
abstract class SourceTermsContract extends EngineContract {

    private static final String FILE = "SourceTermsContract.java";

    /** Keeps a thread, which is not serializable, in a local across its rets. */
    static final class HoldsThread extends AsymCoroutine<Integer, String> {
        HoldsThread(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Integer first) {
            Thread worker = Thread.currentThread();
            int x = first;
            while (true) {
                x = ret(worker.getName().length() + " " + x); // line:holds-thread
            }
        }
    }

    /** Rets inside a synchronized block: refused where the monitor cannot go with the frame, with the refusal's message. */
    static final class HoldsMonitor extends AsymCoroutine<Integer, String> {
        HoldsMonitor(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Integer first) {
            synchronized (this) {
                try {
                    ret("inside " + first); // line:holds-monitor
                } catch (IllegalStateException refused) {
                    return refused.getMessage();
                }
            }
            return "left";
        }
    }

    /** {@code HoldsThread.run(SourceTermsContract.java:line)}, the frame's place at the marked line. */
    private static String run(Class<?> body, String marker) {
        return body.getName() + ".run(" + FILE + ":" + SourceLines.lineOf(body, marker) + ")";
    }

    private HoldsThread suspended() {
        HoldsThread co = new HoldsThread(engine());
        assertEquals(Thread.currentThread().getName().length() + " 1", co.call(1));
        return co;
    }

    private static int slotHolding(CoroutineFrame frame, Class<?> type) {
        for (int slot = 0; slot < frame.localCount; slot++) {
            if (type.isInstance(frame.objectValues[slot])) {
                return slot;
            }
        }
        throw new AssertionError("no local holds a " + type.getName() + " in " + frame);
    }

    @Test
    void aFrameShowsItsSourceLine() {
        CoroutineFrame frame = suspended().serialize()[0];
        assertEquals(run(HoldsThread.class, "holds-thread") + " at bci " + frame.bci + " (" + frame.localCount
                + " locals, " + frame.expressionCount + " on the stack)", frame.toString());
    }

    @Test
    void aValueThatIsNotSerializableIsNamedAsItsLocal() throws IOException {
        HoldsThread co = suspended();
        co.setName("holder");
        CoroutineFrame frame = co.serialize()[0];
        int slot = slotHolding(frame, Thread.class);
        try (CoroutineOutputStream<Integer, String> out = new CoroutineOutputStream<>(new ByteArrayOutputStream())) {
            NotSerializableException e = assertThrows(NotSerializableException.class, () -> out.writeAsymCoroutine(co));
            assertMentions(e.getMessage(), ": frame 0, " + run(HoldsThread.class, "holds-thread") + ", local worker (bci "
                    + frame.bci + ", local slot " + slot + ") holds a java.lang.Thread, which is not Serializable;");
        }
    }

    @Test
    void aLocalOfAnotherTypeIsRefusedByItsName() {
        HoldsThread original = suspended();
        HoldsThread copy = new HoldsThread(engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        int slot = slotHolding(frames[0], Thread.class);
        frames[0].objectValues[slot] = "not a thread";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> copy.deserialize(frames));
        assertMentions(e.getMessage(), ": frame 0 of 1, " + run(HoldsThread.class, "holds-thread") + ", local worker (bci "
                + frames[0].bci + ", local slot " + slot + ") holds a java.lang.String where its method has a java.lang.Thread");
    }

    @Test
    void slotZeroOfAnInstanceMethodIsThis() {
        HoldsThread original = suspended();
        HoldsThread copy = new HoldsThread(engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        frames[0].objectValues[0] = "not a coroutine";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> copy.deserialize(frames));
        assertMentions(e.getMessage(), ": frame 0 of 1, " + run(HoldsThread.class, "holds-thread") + ", this (bci "
                + frames[0].bci + ", local slot 0) holds a java.lang.String where its method has a "
                + HoldsThread.class.getName());
    }

    @Test
    void aFrameOfAClassThatIsNotWovenSaysHowToWeaveIt() throws NoSuchMethodException {
        HoldsThread original = suspended();
        HoldsThread copy = new HoldsThread(engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        frames[0].method = Assertions.class.getMethod("fail", String.class); // JUnit's: not woven here
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> copy.deserialize(frames));
        String p = "org.junit.jupiter.api";
        assertMentions(e.getMessage(), ": frame 0 of 1, org.junit.jupiter.api.Assertions.fail(Unknown Source) (bci "
                + frames[0].bci + ") is in org.junit.jupiter.api.Assertions, which is not woven: weave it with the Maven"
                + " plugin (<package>" + p + "</package> in weft-maven-plugin's <packages>), the agent"
                + " (-javaagent:weft-weaver-VERSION-agent.jar=" + p + ") or the command line"
                + " (java -jar weft-weaver-VERSION-agent.jar --only " + p + " DIR)");
    }

    /**
     * A frame that holds a monitor where it is suspended is named at the line of its call: the
     * native engine (from JDK 24 on) suspends it and refuses to serialize it; the woven engine
     * refuses the suspension itself.
     */
    @Test
    void aFrameHoldingAMonitorIsNamedAtItsLine() {
        HoldsMonitor co = new HoldsMonitor(engine());
        co.setName("locker");
        if (engine() == Engine.WOVEN) {
            assertMentions(co.call(1), "cannot suspend locker [", "on the woven engine: the woven frame "
                    + run(HoldsMonitor.class, "holds-monitor") + " suspends while it holds a monitor (synchronized)");
            return;
        }
        assumeTrue(Runtime.version().feature() >= 24, "HotSpot freezes frames that hold monitors from JDK 24 on");
        assertEquals("inside 1", co.call(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, co::serialize);
        assertMentions(e.getMessage(), "cannot serialize locker [", ": its frame " + run(HoldsMonitor.class, "holds-monitor")
                + " (run(Ljava/lang/Integer;)Ljava/lang/String;", ") holds a monitor (synchronized) where it is suspended");
        assertEquals("left", co.call(2));
    }
}
