package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.Engine;
import dev.weft.sessions.flows.Questionnaire;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Micrometer and OpenTelemetry are optional: a node without observers runs on a class path that
 * has neither (weft-sessions, weft-core, sqlite-jdbc and the test bodies, in a class loader of
 * their own), on each engine, and loads none of the classes that observe steps.
 */
class UnobservedClassPathTest {

    @TempDir
    Path directory;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aNodeWithoutObserversRunsWithoutMicrometerOrOpenTelemetryAndLoadsNothingOfThem(Engine engine)
            throws Exception {
        try (RecordingLoader loader = new RecordingLoader(Sessions.class, Engine.class, org.sqlite.JDBC.class,
                Questionnaire.class)) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(
                    "io.micrometer.core.instrument.MeterRegistry", false, loader));
            assertThrows(ClassNotFoundException.class, () -> Class.forName("io.opentelemetry.api.OpenTelemetry",
                    false, loader));
            Method run = Class.forName(Node.class.getName(), true, loader).getDeclaredMethod("run", Path.class,
                    String.class);
            run.setAccessible(true);
            assertEquals("What is your name? / Where do you live, Ada?", run.invoke(null,
                    directory.resolve("sessions.db"), engine.name()));
            assertEquals(List.of(), loader.loaded.stream().filter(name -> name.startsWith(
                    "dev.weft.sessions.micrometer.") || name.startsWith("dev.weft.sessions.opentelemetry.")
                    || name.startsWith(StepObservations.class.getName())).sorted().toList(), "classes that observe");
        }
    }

    /** Loads the classes of the code sources it is given, and no others but the JDK's; remembers their names. */
    private static final class RecordingLoader extends URLClassLoader {
        final Set<String> loaded = ConcurrentHashMap.newKeySet();

        RecordingLoader(Class<?>... sources) throws Exception {
            super(urls(sources), ClassLoader.getPlatformClassLoader());
        }

        private static URL[] urls(Class<?>... sources) throws Exception {
            URL[] urls = new URL[sources.length];
            for (int i = 0; i < sources.length; i++) {
                urls[i] = sources[i].getProtectionDomain().getCodeSource().getLocation().toURI().toURL();
            }
            return urls;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            loaded.add(name);
            return super.findClass(name);
        }
    }

    /** What runs in that class loader: a node built with no observers starts and resumes a session. */
    static final class Node {
        private Node() {
        }

        static String run(Path file, String engine) throws ClassNotFoundException {
            Class.forName("org.sqlite.JDBC"); // this loader's driver, registered with DriverManager as it loads
            try (SessionStore store = SessionStore.sqlite(file)) {
                Sessions sessions = Sessions.builder(store).engine(Engine.valueOf(engine))
                        .classLoader(Node.class.getClassLoader()).build();
                SessionStep<String> step = sessions.start(new Questionnaire(), null);
                return step.output() + " / " + sessions.<String, String>resume(step.id(), "Ada").output();
            }
        }
    }
}
