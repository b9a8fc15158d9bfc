package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.contract.linkage.Facade;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Calls the JVM links through a class other than the one that declares the method: a public
 * static method and a public instance method that a public class inherits from a class that is
 * not public, in another package (Kotlin's facade classes are built so), called as static, as
 * virtual and as {@code super} calls. A coroutine suspends inside each, is serialized there
 * and resumed from its frames, on either engine.
 */
abstract class LinkageContract extends EngineContract {

    /** Calls the inherited methods in each way, suspending inside each. */
    static final class Calls extends AsymCoroutine<String, String> {
        Calls(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(String first) {
            String asked = Facade.ask(this, "static " + first);
            String greeted = new Facade().greet(this);
            String loud = new Loud().greet(this);
            return asked + ", " + greeted + ", " + loud;
        }
    }

    /** Calls the inherited instance method as {@code super.greet}: the call names Facade, the method is Hidden's. */
    static final class Loud extends Facade {
        @Override
        public String greet(AsymCoroutine<? extends String, ? super String> co) {
            return super.greet(co) + "!";
        }
    }

    @Test
    void inheritedMethodsOfAClassThatIsNotPublicRunAndSuspendAsTheirCallsName() {
        Calls calls = new Calls(engine());
        assertEquals("static 1", calls.call("1"));
        assertEquals("name?", calls.call("a"));
        assertEquals("name?", calls.call("Ada"));
        assertEquals("static 1=a, hello Ada, hello Bob!", calls.call("Bob"));
        assertTrue(calls.isFinished());
    }

    @Test
    void aCoroutineSuspendedInsideEachIsSerializedAndResumedFromItsFrames() {
        String[] inputs = {"1", "a", "Ada", "Bob"};
        for (int suspended = 1; suspended < inputs.length; suspended++) {
            Calls original = new Calls(engine());
            String last = null;
            for (int i = 0; i < suspended; i++) {
                last = original.call(inputs[i]);
            }
            CoroutineFrame[] frames = original.serialize();
            assertTrue(Arrays.stream(frames).anyMatch(f -> f.method.getDeclaringClass().getSimpleName().equals("Hidden")),
                    "a frame of Hidden's method after " + last + ": " + Arrays.toString(frames));
            Calls copy = new Calls(engine());
            copy.deserialize(SerializationContract.rehome(frames, original, copy));
            original.close();
            String result = null;
            for (int i = suspended; i < inputs.length; i++) {
                result = copy.call(inputs[i]);
            }
            assertEquals("static 1=a, hello Ada, hello Bob!", result, "resumed after " + suspended + " calls");
        }
    }
}
