package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.contract.linkage.Asking;
import dev.weft.contract.linkage.Base;
import dev.weft.contract.linkage.Facade;
import dev.weft.contract.linkage.Template;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import kotlin.text.StringsKt;
import org.junit.jupiter.api.Test;

/**
 * The shapes of call the JVM links, each with a suspension inside: a public static method and a
 * public instance method that a public class inherits from a class that is not public, in
 * another package (Kotlin's facade classes are built so), called as static, as virtual and as
 * {@code super} calls; an interface's static, private and default methods; a nestmate's private
 * method; a protected method of a superclass in another package; an abstract method of a
 * generic class of another package, implemented and overridden again here, which the base class's
 * code calls; and kotlin-stdlib's facades
 * (StringsKt), called between suspensions. A coroutine suspends inside
 * each, is serialized there and resumed from its frames, on either engine. A call through a
 * method handle ({@code invokeExact}, signature-polymorphic) suspends on the native engine; the
 * woven engine cannot unwind the JDK's frames between, and refuses the suspension, saying so.
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

    /**
     * Suspends once in each of the other shapes javac links: an interface's static, private and
     * default ({@code Asking.super}) methods, a nestmate's private method, and a protected method
     * of a superclass in another package, called on itself and as {@code super}.
     */
    static final class Shapes extends AsymCoroutine<String, String> {
        Shapes(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(String first) {
            Asker asker = new Asker();
            return String.join(", ", Asking.askStatic(this), asker.askThroughPrivate(this), asker.askDefault(this),
                    new Nested().askOuter(this), asker.askOwnProtected(this), asker.askSuper(this));
        }

        private static String askNestmate(AsymCoroutine<? extends String, ? super String> co) {
            return "nestmate=" + co.ret("nestmate private");
        }

        /** Calls its enclosing class's private method: javac 11 and later call a nestmate's directly. */
        final class Nested {
            String askOuter(AsymCoroutine<? extends String, ? super String> co) {
                return askNestmate(co);
            }
        }
    }

    /** Implements {@link Asking} and extends {@link Base}, from another package than theirs. */
    static final class Asker extends Base implements Asking {
        @Override
        public String askDefault(AsymCoroutine<? extends String, ? super String> co) {
            return Asking.super.askDefault(co);
        }

        String askOwnProtected(AsymCoroutine<? extends String, ? super String> co) {
            return askProtected(co);
        }

        String askSuper(AsymCoroutine<? extends String, ? super String> co) {
            return "super " + super.askProtected(co);
        }
    }

    /** The labels Shapes passes out, in order, and what it returns when each is answered with its position. */
    private static final List<String> SHAPE_LABELS = List.of("interface static", "interface private",
            "default through super", "nestmate private", "protected across packages", "protected across packages");
    private static final String SHAPES_RESULT = "static=1, private=2, default=3, nestmate=4, protected=5, super protected=6";

    @Test
    void everyShapeOfCallJavacLinksSuspendsAndResumes() {
        Shapes shapes = new Shapes(engine());
        List<String> labels = new ArrayList<>();
        labels.add(shapes.call("go"));
        for (int i = 1; i < SHAPE_LABELS.size(); i++) {
            labels.add(shapes.call(String.valueOf(i)));
        }
        assertEquals(SHAPE_LABELS, labels);
        assertEquals(SHAPES_RESULT, shapes.call(String.valueOf(SHAPE_LABELS.size())));
    }

    @Test
    void aCoroutineSuspendedInEachShapeIsResumedFromItsFrames() {
        for (int suspended = 1; suspended <= SHAPE_LABELS.size(); suspended++) {
            Shapes original = new Shapes(engine());
            original.call("go");
            for (int i = 1; i < suspended; i++) {
                original.call(String.valueOf(i));
            }
            Shapes copy = new Shapes(engine());
            copy.deserialize(SerializationContract.rehome(original.serialize(), original, copy));
            original.close();
            String result = null;
            for (int i = suspended; i <= SHAPE_LABELS.size(); i++) {
                result = copy.call(String.valueOf(i));
            }
            assertEquals(SHAPES_RESULT, result, "resumed at " + SHAPE_LABELS.get(suspended - 1));
        }
    }

    /** Implements {@link Template}'s abstract method from another package than its. */
    static class Filler extends Template<String> {
        @Override
        protected String fill(AsymCoroutine<? extends String, ? super String> co, String value) {
            return value + "=" + co.ret("fill " + value);
        }
    }

    /** Overrides the override, calling it as {@code super}. */
    static final class LoudFiller extends Filler {
        @Override
        protected String fill(AsymCoroutine<? extends String, ? super String> co, String value) {
            return super.fill(co, value.toUpperCase(java.util.Locale.ROOT)) + "!";
        }
    }

    /**
     * Has {@link Template}'s code, in another package, call overrides of its abstract method of
     * two classes, and an inner class's code call its outer instance's.
     */
    static final class Overriding extends AsymCoroutine<String, String> {
        Overriding(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(String first) {
            Template<String> filler = new Filler();
            Template<String> loud = new LoudFiller();
            return String.join(" ", filler.render(this, "x"), loud.render(this, "y"), new Inner().render("z"));
        }

        /** An inner class: its code calls the enclosing coroutine's inherited ret, through its outer instance. */
        final class Inner {
            String render(String value) {
                return new Filler().render(Overriding.this, value);
            }
        }
    }

    private static final List<String> OVERRIDING_LABELS = List.of("fill x", "fill Y", "fill z");
    private static final String OVERRIDING_RESULT = "[x=1] [Y=2!] [z=3]";

    @Test
    void overridesAcrossPackagesAreCalledByTheBaseClassAndSuspend() {
        Overriding co = new Overriding(engine());
        List<String> labels = new ArrayList<>();
        labels.add(co.call("go"));
        for (int i = 1; i < OVERRIDING_LABELS.size(); i++) {
            labels.add(co.call(String.valueOf(i)));
        }
        assertEquals(OVERRIDING_LABELS, labels);
        assertEquals(OVERRIDING_RESULT, co.call(String.valueOf(OVERRIDING_LABELS.size())));
    }

    @Test
    void aCoroutineSuspendedInAnOverrideIsResumedFromItsFrames() {
        for (int suspended = 1; suspended <= OVERRIDING_LABELS.size(); suspended++) {
            Overriding original = new Overriding(engine());
            original.call("go");
            for (int i = 1; i < suspended; i++) {
                original.call(String.valueOf(i));
            }
            Overriding copy = new Overriding(engine());
            copy.deserialize(SerializationContract.rehome(original.serialize(), original, copy));
            original.close();
            String result = null;
            for (int i = suspended; i <= OVERRIDING_LABELS.size(); i++) {
                result = copy.call(String.valueOf(i));
            }
            assertEquals(OVERRIDING_RESULT, result, "resumed at " + OVERRIDING_LABELS.get(suspended - 1));
        }
    }

    /** Calls a method that suspends through {@code MethodHandle.invokeExact}, a signature-polymorphic call. */
    static final class ThroughHandle extends AsymCoroutine<String, String> {
        private static final MethodHandle ASK;

        static {
            try {
                ASK = MethodHandles.lookup().findStatic(ThroughHandle.class, "ask",
                        MethodType.methodType(String.class, AsymCoroutine.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        ThroughHandle(Engine engine) {
            super(engine);
        }

        private static String ask(AsymCoroutine<? extends String, ? super String> co) {
            return "handle=" + co.ret("through a method handle");
        }

        @Override
        protected String run(String first) {
            try {
                return (String) ASK.invokeExact((AsymCoroutine<?, ?>) this);
            } catch (IllegalStateException refused) {
                return "refused: " + refused.getMessage();
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }
    }

    /**
     * What a suspension inside a method called through a method handle gives: null if it
     * suspends, as on the native engine; else the start of the refusal the body gets.
     */
    String refusalThroughMethodHandles() {
        return null;
    }

    @Test
    void aSignaturePolymorphicCallSuspendsOrIsRefusedAsTheEngineSays() {
        ThroughHandle co = new ThroughHandle(engine());
        co.setName("handle");
        String first = co.call("go");
        String refusal = refusalThroughMethodHandles();
        if (refusal == null) {
            assertEquals("through a method handle", first);
            assertEquals("handle=x", co.call("x"));
        } else {
            assertTrue(first.startsWith(refusal), first);
            assertTrue(co.isFinished());
        }
    }

    /** Calls kotlin-stdlib's facades between its suspensions, as Java calls them: StringsKt's functions are its superclasses'. */
    static final class KotlinFacades extends AsymCoroutine<String, String> {
        KotlinFacades(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(String first) {
            String before = StringsKt.substringBefore(first, ",", "none");
            String next = ret(before);
            return StringsKt.substringAfter(next, "=", "none") + " " + StringsKt.reversed((CharSequence) next);
        }
    }

    @Test
    void kotlinStdlibFacadesAreCalledFromACoroutine() {
        KotlinFacades co = new KotlinFacades(engine());
        assertEquals("a", co.call("a,b"));
        assertEquals("2 2=x", co.call("x=2"));
        assertTrue(co.isFinished());
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
