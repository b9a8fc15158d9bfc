package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineDump;
import dev.weft.CoroutineFrame;
import dev.weft.CoroutineInfo;
import dev.weft.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * A coroutine's stack trace ({@link CoroutineBase#getStackTrace()}) and its state: the same
 * frames on both engines, named as the source names them, at the lines of the calls in progress,
 * which are found from marker comments in this file; dumps of a thread's live coroutines
 * ({@link CoroutineDump}); and the JFR events of a coroutine's life, read back from a recording.
 */
abstract class DumpContract extends EngineContract {

    static final String FILE = "DumpContract.java";

    /** Rets from a helper two calls below its body: a stack of three frames. */
    static final class Deep extends AsymCoroutine<Integer, Integer> {
        Deep(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer first) {
            return outer(first) + 1; // line:deep-run
        }

        private int outer(int x) {
            return inner(x) * 2; // line:deep-outer
        }

        private int inner(int x) {
            return ret(x); // line:deep-inner
        }
    }

    /** Yields round the ring for ever. */
    static final class Spinner extends Coroutine {
        Spinner(Engine engine) {
            super(engine);
        }

        @Override
        public void run() {
            while (true) {
                Coroutine.yield(); // line:spinner-yield
            }
        }
    }

    /** An asymmetric body that passes out its own stack trace, read while it runs, and then rets once. */
    static final class Introspect implements AsymRunnable<Void, StackTraceElement[]> {
        @Override
        public StackTraceElement[] run(AsymCoroutine<? extends Void, ? super StackTraceElement[]> self, Void first) {
            StackTraceElement[] running = self.getStackTrace(); // line:introspect-read
            self.ret(running); // line:introspect-ret
            return null;
        }
    }

    /** What an element must say: the class, method, file and the line marked {@code marker}. */
    static String place(Class<?> type, String method, String marker) {
        return type.getName() + "." + method + "(" + FILE + ":" + SourceLines.lineOf(type, marker) + ")";
    }

    /** Each element as {@code class.method(file:line)}, without loader or module. */
    static List<String> places(StackTraceElement[] trace) {
        List<String> places = new ArrayList<>();
        for (StackTraceElement e : trace) {
            places.add(e.getClassName() + "." + e.getMethodName() + "(" + e.getFileName() + ":" + e.getLineNumber() + ")");
        }
        return places;
    }

    Deep suspendedDeep() {
        Deep co = new Deep(engine());
        assertEquals(3, co.call(3));
        return co;
    }

    @Test
    void aSuspendedCoroutineShowsItsFramesInnermostFirstAtTheLinesOfTheirCalls() {
        Deep co = suspendedDeep();
        assertEquals(List.of(place(Deep.class, "inner", "deep-inner"), place(Deep.class, "outer", "deep-outer"),
                place(Deep.class, "run", "deep-run")), places(co.getStackTrace()));
        assertSame(CoroutineBase.State.SUSPENDED, co.getState());
    }

    @Test
    void aSuspendedSymmetricCoroutineShowsTheFrameThatYielded() {
        Spinner co = new Spinner(engine());
        Coroutine.yield();
        assertEquals(List.of(place(Spinner.class, "run", "spinner-yield")), places(co.getStackTrace()));
        assertSame(CoroutineBase.State.SUSPENDED, co.getState());
    }

    @Test
    void framesPrintAsTheJvmsOwnDo() {
        Deep co = suspendedDeep();
        StackTraceElement[] trace = co.getStackTrace();
        assertEquals(places(trace).get(0), trace[0].toString(), "no loader or module before the class");
    }

    @Test
    void readingTheStackLeavesTheCoroutineAsItWas() {
        Deep co = suspendedDeep();
        co.getStackTrace();
        assertEquals(11, co.call(5)); // inner returns 5, outer 10, run 11
        assertSame(CoroutineBase.State.FINISHED, co.getState());
    }

    @Test
    void aNewOrFinishedCoroutineHasNoFrames() {
        Deep co = new Deep(engine());
        assertArrayEquals(new StackTraceElement[0], co.getStackTrace());
        assertSame(CoroutineBase.State.NEW, co.getState());
        co.call(1);
        co.call(1);
        assertSame(CoroutineBase.State.FINISHED, co.getState());
        assertArrayEquals(new StackTraceElement[0], co.getStackTrace());
    }

    @Test
    void aRunningCoroutineShowsItsLiveFramesFromTheCaller() {
        AsymCoroutine<Void, StackTraceElement[]> co = new AsymCoroutine<>(new Introspect(), engine());
        StackTraceElement[] running = co.call(null);
        assertEquals(place(Introspect.class, "run", "introspect-read"), places(running).get(0));
        assertEquals(List.of(place(Introspect.class, "run", "introspect-ret")), places(co.getStackTrace()));
    }

    @Test
    void aClosedCoroutineIsFinishedWithNoFrames() {
        Spinner co = new Spinner(engine());
        Coroutine.yield();
        co.close();
        assertSame(CoroutineBase.State.FINISHED, co.getState());
        assertArrayEquals(new StackTraceElement[0], co.getStackTrace());
    }

    @Test
    void theStackOfASuspendedCoroutineIsReadFromAnotherThread() throws Exception {
        Deep co = suspendedDeep();
        StackTraceElement[][] read = new StackTraceElement[1][];
        Thread other = new Thread(() -> read[0] = co.getStackTrace());
        other.start();
        other.join();
        assertEquals(places(co.getStackTrace()), places(read[0]));
        assertEquals(3, read[0].length);
    }

    // ------------------------------------------------------------ dumps

    /** Fails with a message, which its failed event carries. */
    static final class Failing extends AsymCoroutine<Void, Void> {
        Failing(Engine engine) {
            super(engine);
        }

        @Override
        protected Void run(Void first) {
            throw new IllegalStateException("broken on purpose");
        }
    }

    @Test
    void aDumpOfTheThreadListsItsThreeSuspendedCoroutinesWithTheirStacks() {
        Deep deep = suspendedDeep();
        deep.setName("deep");
        Spinner spinner = new Spinner(engine());
        spinner.setName("spinner");
        Coroutine.yield();
        Deep other = suspendedDeep();
        other.setName("other");
        Deep fresh = new Deep(engine()); // new: not live
        Thread me = Thread.currentThread();
        Map<String, CoroutineInfo> dumped = CoroutineDump.of(me).coroutines().stream()
                .collect(Collectors.toMap(CoroutineInfo::name, c -> c));
        assertEquals(List.of("deep", "other", "spinner"), dumped.keySet().stream().sorted().toList());
        assertInfo(dumped.get("deep"), CoroutineInfo.Kind.ASYMMETRIC, me, List.of(place(Deep.class, "inner", "deep-inner"),
                place(Deep.class, "outer", "deep-outer"), place(Deep.class, "run", "deep-run")));
        assertInfo(dumped.get("spinner"), CoroutineInfo.Kind.SYMMETRIC, me, List.of(place(Spinner.class, "run", "spinner-yield")));
        assertInfo(dumped.get("other"), CoroutineInfo.Kind.ASYMMETRIC, me, places(deep.getStackTrace()));
        assertTrue(CoroutineDump.ofAllThreads().coroutines().stream().map(CoroutineInfo::name).toList()
                .containsAll(List.of("deep", "spinner", "other")));
        String text = CoroutineDump.of(me).toString();
        assertMentions(text, "Weft coroutines: 3", "\"deep\" asymmetric " + lower(engine()) + " suspended, thread \""
                + me.getName() + "\"", "    at " + deep.getStackTrace()[0]);
        assertEquals(CoroutineBase.State.NEW, fresh.getState());
    }

    @Test
    void aDumpOfAThreadWithoutCoroutinesIsEmptyAndNullIsRefused() throws Exception {
        Thread idle = new Thread(() -> { });
        idle.start();
        idle.join();
        assertEquals(List.of(), CoroutineDump.of(idle).coroutines());
        NullPointerException e = assertThrows(NullPointerException.class, () -> CoroutineDump.of(null));
        assertEquals("thread", e.getMessage());
    }

    @Test
    void aDumpOfAnotherThreadReadsItsSuspendedCoroutines() throws Throwable {
        Deep[] held = new Deep[1];
        Thread owner = new Thread(() -> {
            held[0] = suspendedDeep();
            held[0].setName("held elsewhere");
        }, "dump-owner");
        owner.start();
        owner.join();
        List<CoroutineInfo> dumped = CoroutineDump.of(owner).coroutines();
        assertEquals(1, dumped.size(), dumped::toString);
        assertInfo(dumped.get(0), CoroutineInfo.Kind.ASYMMETRIC, owner, List.of(place(Deep.class, "inner", "deep-inner"),
                place(Deep.class, "outer", "deep-outer"), place(Deep.class, "run", "deep-run")));
        assertTrue(held[0].steal());
    }

    private void assertInfo(CoroutineInfo info, CoroutineInfo.Kind kind, Thread owner, List<String> stack) {
        assertEquals(kind, info.kind());
        assertSame(engine(), info.engine());
        assertSame(CoroutineBase.State.SUSPENDED, info.state());
        assertSame(owner, info.owner());
        assertEquals(stack, places(info.stackTrace()));
    }

    private static String lower(Engine engine) {
        return engine.name().toLowerCase(java.util.Locale.ROOT);
    }

    // ------------------------------------------------------------ JFR

    @Test
    void aRecordingHoldsEachEventOfACoroutinesLife() throws Throwable {
        List<RecordedEvent> events = record(Configuration.getConfiguration("default"), this::liveALife);
        String thread = Thread.currentThread().getName();
        Map<String, List<RecordedEvent>> byType = events.stream()
                .collect(Collectors.groupingBy(e -> e.getEventType().getName()));
        RecordedEvent created = only(byType, "dev.weft.CoroutineCreated", e -> e.getString("coroutine").equals(names[0]));
        assertEquals(Deep.class.getName(), created.getString("coroutineClass"));
        assertEquals("asymmetric", created.getString("kind"));
        assertEquals(lower(engine()), created.getString("engine"));
        assertEquals(thread, created.getThread().getJavaName());
        only(byType, "dev.weft.CoroutineFinished", e -> e.getString("coroutine").equals(names[0]));
        RecordedEvent failed = only(byType, "dev.weft.CoroutineFailed", e -> e.getString("coroutine").equals(names[1]));
        assertEquals(IllegalStateException.class.getName(), failed.getString("exceptionClass"));
        assertEquals("broken on purpose", failed.getString("exceptionMessage"));
        only(byType, "dev.weft.CoroutineClosed", e -> e.getString("coroutine").equals(names[2]));
        RecordedEvent stolen = only(byType, "dev.weft.CoroutineStolen", e -> e.getString("coroutine").equals(names[3]));
        assertEquals("jfr-owner", stolen.getString("fromThread"));
        assertEquals(thread, stolen.getThread().getJavaName());
        assertEquals(3, only(byType, "dev.weft.CoroutineSerialized", e -> e.getString("coroutine").equals(names[3])).getInt("frames"));
        assertEquals(3, only(byType, "dev.weft.CoroutineDeserialized", e -> e.getString("coroutine").equals(names[4])).getInt("frames"));
        assertFalse(byType.containsKey("dev.weft.CoroutineSwitch"), "switch events are off by default");
    }

    @Test
    void switchEventsAreRecordedWhenARecordingEnablesThem() throws Throwable {
        Configuration defaults = Configuration.getConfiguration("default");
        List<RecordedEvent> events = record(defaults, "dev.weft.CoroutineSwitch", () -> {
            Deep co = new Deep(engine());
            names[0] = co.getName();
            co.call(1);
            co.call(2);
        });
        List<String> previous = events.stream().filter(e -> e.getEventType().getName().equals("dev.weft.CoroutineSwitch"))
                .filter(e -> e.getString("coroutine").equals(names[0])).map(e -> e.getString("previousState")).toList();
        assertEquals(List.of("new", "suspended"), previous);
    }

    /** The names of the coroutines of a recorded run, by their part in it. */
    private final String[] names = new String[5];

    /** Runs a life of each kind: one finishes, one fails, one is closed, one is stolen and serialized into another. */
    private void liveALife() throws Throwable {
        Deep finishing = new Deep(engine());
        names[0] = finishing.getName();
        finishing.call(1);
        finishing.call(1);
        Failing failing = new Failing(engine());
        names[1] = failing.getName();
        assertThrows(IllegalStateException.class, () -> failing.call(null));
        Deep closing = suspendedDeep();
        names[2] = closing.getName();
        closing.close();
        Deep stolen = OtherThread.call("jfr-owner", this::suspendedDeep);
        names[3] = stolen.getName();
        assertTrue(stolen.steal());
        Deep copy = new Deep(engine());
        names[4] = copy.getName();
        copy.deserialize(SerializationContract.rehome(stolen.serialize(), stolen, copy));
        assertEquals(11, copy.call(5)); // the copy goes on where the stolen one was
    }

    interface Run {
        void run() throws Throwable;
    }

    private List<RecordedEvent> record(Configuration configuration, Run run) throws Throwable {
        return record(configuration, null, run);
    }

    /** The events of Weft that a recording with {@code configuration}, and {@code enabled} too, holds of {@code run}. */
    private static List<RecordedEvent> record(Configuration configuration, String enabled, Run run) throws Throwable {
        Path file = Files.createTempFile("weft-dump-contract", ".jfr");
        try (Recording recording = new Recording(configuration)) {
            if (enabled != null) {
                recording.enable(enabled);
            }
            recording.start();
            run.run();
            recording.stop();
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("dev.weft.")).toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static RecordedEvent only(Map<String, List<RecordedEvent>> byType, String type, Predicate<RecordedEvent> which) {
        List<RecordedEvent> found = byType.getOrDefault(type, List.of()).stream().filter(which).toList();
        assertEquals(1, found.size(), () -> type + " events: " + byType.get(type));
        return found.get(0);
    }
}
