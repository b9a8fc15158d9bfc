package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymRunnable;
import dev.weft.Engine;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A new build never strands sessions silently. Two versions of one class,
 * {@code dev.weft.sessions.upgraded.Signup} (test resources {@code signup/v1} and {@code signup/v2}),
 * are compiled and woven by the test and loaded by two class loaders: two nodes with different
 * code over one store. A node refuses the other's sessions, with a reason, and leaves them as
 * they were; the old node drains its own; an upgrade moves a version 1 session, at its point
 * "email", to version 2, which finishes it, on either engine.
 */
class BuildsAndUpgradesTest {

    private static final String SIGNUP = "dev.weft.sessions.upgraded.Signup";

    private static ClassLoader v1;
    private static ClassLoader v2;

    @TempDir
    Path directory;

    private SessionStore store;
    private Sessions nodeV1;
    private Sessions nodeV2;

    @BeforeAll
    static void compileBothVersions(@TempDir Path build) throws Exception {
        v1 = version(build, "v1");
        v2 = version(build, "v2");
    }

    @BeforeEach
    void open() {
        store = SessionStore.sqlite(directory.resolve("sessions.db"));
        nodeV1 = Sessions.builder(store).classLoader(v1).build();
        nodeV2 = Sessions.builder(store).classLoader(v2).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aNodeWithOtherCodeRefusesASessionWithAReasonAndLeavesItUntouched() throws Exception {
        SessionStep<String> step = nodeV1.start(signup(v1), null);
        step = nodeV1.resume(step.id(), step.version(), "Ada");
        assertEquals("v1: your e-mail, Ada?", step.output());
        String id = step.id();
        SessionInfo before = nodeV1.status(id).orElseThrow();

        SessionRefusedException refused = assertThrows(SessionRefusedException.class,
                () -> nodeV2.resume(id, 2, "ada@example.org"));
        assertEquals(before.build(), refused.build());
        assertTrue(refused.reason().contains(SIGNUP + ".run") && refused.reason().contains("other code here"),
                refused.reason());
        assertTrue(refused.getMessage().contains(id), refused.getMessage());
        assertEquals(before, nodeV2.status(id).orElseThrow(), "the refused session is untouched");
        assertTrue(nodeV2.refusal(id).isPresent());
        assertTrue(nodeV1.refusal(id).isEmpty());

        // the old node drains it
        SessionStep<String> last = nodeV1.resume(id, 2, "ada@example.org");
        assertTrue(last.finished());
        assertEquals("v1 signed up Ada <ada@example.org>", last.output());
    }

    @Test
    void sessionsAreListedByBuildWithEachNodesVerdict() throws Exception {
        String old1 = nodeV1.start(signup(v1), null).id();
        nodeV1.start(signup(v1), null);
        String fresh = nodeV2.start(signup(v2), null).id();
        String buildV1 = nodeV1.status(old1).orElseThrow().build();
        String buildV2 = nodeV2.status(fresh).orElseThrow().build();
        assertNotEquals(buildV1, buildV2);

        Map<String, Sessions.BuildSummary> byBuild = new HashMap<>();
        nodeV2.builds().forEach(b -> byBuild.put(b.build(), b));
        assertEquals(2, byBuild.get(buildV1).sessions());
        assertTrue(byBuild.get(buildV1).refusal().contains("other code here"), byBuild.get(buildV1).refusal());
        assertEquals(1, byBuild.get(buildV2).sessions());
        assertNull(byBuild.get(buildV2).refusal());

        String builds = command(v2, "builds");
        assertTrue(builds.startsWith("BUILD\tSESSIONS\tTHIS NODE\n"), builds);
        assertTrue(builds.contains(buildV1 + "\t2\trefused: method " + SIGNUP + ".run"), builds);
        assertTrue(builds.contains(buildV2 + "\t1\taccepted"), builds);
        String list = command(v1, "list");
        assertTrue(list.contains(old1 + "\tSUSPENDED\t1\t" + buildV1 + "\tname\t-\taccepted"), list);
        assertTrue(list.contains(fresh + "\tSUSPENDED\t1\t" + buildV2 + "\tname\t-\trefused: method " + SIGNUP),
                list);
    }

    /** Version 1 runs on the native engine; the upgrading node on each engine. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void anUpgradeMovesAVersion1SessionAtANamedPointToVersion2(Engine engine) throws Exception {
        nodeV1 = Sessions.builder(store).classLoader(v1).engine(Engine.NATIVE).build();
        Sessions upgrading = Sessions.builder(store).classLoader(v2).engine(engine).upgrade("email", values -> {
            try {
                return (AsymRunnable<?, ?>) v2.loadClass(SIGNUP).getMethod("fromEmail", Map.class).invoke(null,
                        values);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }).build();
        SessionStep<String> atName = nodeV1.start(signup(v1), null);
        SessionStep<String> started = nodeV1.start(signup(v1), null);
        SessionStep<String> atEmail = nodeV1.resume(started.id(), started.version(), "Ada");
        String oldBuild = nodeV1.status(atEmail.id()).orElseThrow().build();

        assertTrue(upgrading.refusal(atEmail.id()).isEmpty(), "the upgrade applies to it");
        SessionStep<String> moved = upgrading.resume(atEmail.id(), atEmail.version(), "ada@example.org");
        assertEquals("v2: the newsletter, Ada?", moved.output());
        assertEquals(3, moved.version());
        SessionInfo info = upgrading.status(atEmail.id()).orElseThrow();
        assertNotEquals(oldBuild, info.build(), "stored by version 2 now");
        assertEquals("newsletter", info.point());
        assertThrows(SessionRefusedException.class, () -> nodeV1.resume(atEmail.id(), "yes"),
                "version 1 no longer takes it");
        SessionStep<String> done = upgrading.resume(atEmail.id(), 3, "yes");
        assertTrue(done.finished());
        assertEquals("v2 signed up Ada <ada@example.org> newsletter=yes", done.output());

        // a point without an upgrade is refused, and says so
        SessionRefusedException refused = assertThrows(SessionRefusedException.class,
                () -> upgrading.resume(atName.id(), "Bob"));
        assertTrue(refused.reason().contains("no upgrade is registered for its point 'name'"), refused.reason());
        assertEquals(1, upgrading.status(atName.id()).orElseThrow().version());
    }

    @Test
    void theCommandSaysHowToUseItWhenAskedWrongly() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SessionsCommand.run(new String[] {"builds"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), v1);
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: SessionsCommand"));
    }

    private String command(ClassLoader code, String what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = SessionsCommand.run(new String[] {"--sqlite", directory.resolve("sessions.db").toString(), what},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, code);
        assertEquals(0, status);
        return out.toString(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static AsymRunnable<String, String> signup(ClassLoader code) throws ReflectiveOperationException {
        return (AsymRunnable<String, String>) code.loadClass(SIGNUP).getConstructor().newInstance();
    }

    /** Compiles {@code signup/NAME/Signup.java}, weaves it, and loads it in a class loader of its own. */
    private static ClassLoader version(Path build, String name) throws Exception {
        Path sources = Files.createDirectories(build.resolve(name + "-src"));
        Path classes = Files.createDirectories(build.resolve(name + "-classes"));
        Path source = sources.resolve("Signup.java");
        try (InputStream in = BuildsAndUpgradesTest.class.getResourceAsStream("/signup/" + name + "/Signup.java")) {
            assertNotNull(in, "the source of " + name);
            Files.write(source, in.readAllBytes());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int status = compiler.run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), "-proc:none", source.toString());
        assertEquals(0, status, "compiling " + name);
        WovenBuild woven = new WovenBuild("signup-" + name, classes);
        assertEquals(java.util.Set.of(SIGNUP), woven.classNames());
        return woven.loader();
    }
}
