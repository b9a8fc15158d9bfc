package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymRunnable;
import dev.weft.Engine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import javax.crypto.spec.SecretKeySpec;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sessions stored by one build of a class and resumed by a node whose build changed it (issue
 * 36), on both engines: each edit of the corpus below is compiled ({@code -g}) and woven here
 * and loaded by a class loader of its own, a second node over the same store. A session
 * suspended in {@code quantity} on the first build either resumes on the edited one, with the
 * values it held, and runs the new code, or is refused naming the frame, the line and the
 * variable, and is left as it was for the first build's nodes. The sites come from the first
 * build's manifest, stored once per build: the state holds none.
 */
class ChangedCodeSessionsTest {

    private static final String NAME = "evolve.OrderFlow";

    /** The first build: {@code quantity} suspends with {@code item} and {@code price} live. */
    private static final String FIRST = """
            package evolve;

            import dev.weft.AsymCoroutine;
            import dev.weft.AsymRunnable;

            /** Takes an order: an item, then how many. */
            public class OrderFlow implements AsymRunnable<String, String>, java.io.Serializable {
                private static final long serialVersionUID = 1L;

                @Override
                public String run(AsymCoroutine<? extends String, ? super String> self, String item) {
                    return "ordered " + quantity(self, item);
                }

                String quantity(AsymCoroutine<? extends String, ? super String> self, String item) {
                    int price = item.length() * 10;
                    String many = self.ret("how many " + item + " at " + price + "?");
                    return many + " x " + item + " = " + Integer.parseInt(many) * price;
                }
            }
            """;

    private static final String QUANTITY_BODY = """
                    int price = item.length() * 10;
                    String many = self.ret("how many " + item + " at " + price + "?");
                    return many + " x " + item + " = " + Integer.parseInt(many) * price;
            """;

    /** How a refusal of {@code quantity}'s frame starts. */
    private static final String REFUSED = "its frames do not fit this node's changed code: cannot restore a frame of "
            + NAME + ".quantity(Ldev/weft/AsymCoroutine;Ljava/lang/String;)Ljava/lang/String; on its changed code: ";

    /** Each source compiled once, by its label, for every test. */
    private static final Map<String, ClassLoader> BUILDS = new ConcurrentHashMap<>();

    @TempDir
    static Path classes;

    @TempDir
    Path directory;

    private SessionStore store;
    /** The store's JDBC URL, and the command line's arguments that open it. */
    private String url;
    private List<String> storeArguments;

    /** The two stores the sessions are kept in. */
    enum Store { SQLITE, POSTGRES }

    @BeforeEach
    void open() {
        use(Store.SQLITE);
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** Keeps the test's sessions in a new store of {@code kind}. */
    private void use(Store kind) {
        if (store != null) {
            store.close();
        }
        if (kind == Store.SQLITE) {
            Path file = directory.resolve("sessions.db");
            store = SessionStore.sqlite(file);
            url = "jdbc:sqlite:" + file;
            storeArguments = List.of("--sqlite", file.toString());
        } else {
            url = dev.weft.sessions.testing.PostgresServer.shared().newDatabase("changed_code");
            store = SessionStore.postgres(url, "postgres", null);
            storeArguments = List.of("--postgres", url, "--user", "postgres");
        }
    }

    private java.sql.Connection connection() throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(url, "postgres", null);
    }

    /** The first build with {@code quantity}'s body replaced by {@code body}. */
    private static String withQuantity(String body) {
        assertTrue(FIRST.contains(QUANTITY_BODY));
        return FIRST.replace(QUANTITY_BODY, body);
    }

    /** The line of {@code source} that holds {@code text}, counted from 1. */
    private static int lineOf(String source, String text) {
        List<String> lines = source.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line holds " + text);
    }

    /** The place of {@code quantity}'s line {@code line}, as messages name it. */
    private static String quantity(int line) {
        return NAME + ".quantity(OrderFlow.java:" + line + ")";
    }

    /** {@code source} compiled with its variables' names, woven, in a class loader of its own; once per label. */
    private static ClassLoader build(String label, String source) {
        return BUILDS.computeIfAbsent(label, l -> {
            try {
                return compiled(label, source);
            } catch (Exception e) {
                throw new AssertionError("cannot build " + label, e);
            }
        });
    }

    private static ClassLoader compiled(String label, String source) throws Exception {
        Path sources = Files.createDirectories(classes.resolve(label + "-src/evolve"));
        Path output = Files.createDirectories(classes.resolve(label + "-classes"));
        Path file = Files.writeString(sources.resolve("OrderFlow.java"), source);
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        int status = ToolProvider.getSystemJavaCompiler().run(null, messages, messages, "-g", "-proc:none", "-d",
                output.toString(), "-cp", System.getProperty("java.class.path"), file.toString());
        assertEquals(0, status, "compiling " + label + ": " + messages.toString(StandardCharsets.UTF_8));
        return new WovenBuild("evolve-" + label, output).loader();
    }

    private Sessions node(ClassLoader code, Engine engine, boolean acceptChangedCode) {
        Sessions.Builder builder = Sessions.builder(store).classLoader(code).engine(engine).nodeName("node-"
                + code.getName());
        return (acceptChangedCode ? builder.acceptChangedCode() : builder).build();
    }

    @SuppressWarnings("unchecked")
    private static AsymRunnable<String, String> orderFlow(ClassLoader code) throws ReflectiveOperationException {
        return (AsymRunnable<String, String>) code.loadClass(NAME).getConstructor().newInstance();
    }

    /** A session of the first build, suspended in {@code quantity} for "tea" at 30. */
    private String startedOnTheFirstBuild(Engine engine) throws Exception {
        SessionStep<String> step = node(build("first", FIRST), engine, false).start(orderFlow(build("first", FIRST)),
                "tea");
        assertEquals("how many tea at 30?", step.output());
        return step.id();
    }

    /** The first build's session resumed with "2" by a node of {@code source} that accepts changed code: its output. */
    private String resumedOn(String label, String source, Engine engine) throws Exception {
        String id = startedOnTheFirstBuild(engine);
        Sessions changed = node(build(label, source), engine, true);
        assertTrue(changed.refusal(id).isEmpty(), "its frames fit: " + changed.refusal(id));
        SessionStep<String> done = changed.resume(id, 1, "2");
        assertTrue(done.finished());
        return done.output();
    }

    /** Why a node of {@code source} that accepts changed code refuses the first build's session, which stays as it was. */
    private String refusal(String label, String source, Engine engine) throws Exception {
        String id = startedOnTheFirstBuild(engine);
        Sessions first = node(build("first", FIRST), engine, false);
        SessionInfo before = first.status(id).orElseThrow();
        Sessions changed = node(build(label, source), engine, true);
        String foreseen = changed.refusal(id).orElseThrow();
        SessionRefusedException refused = assertThrows(SessionRefusedException.class,
                () -> changed.resume(id, 1, "2"));
        assertTrue(refused.reason().startsWith(foreseen), "refusal(id) said " + foreseen + ", the resume "
                + refused.reason());
        assertEquals(before, first.status(id).orElseThrow(), "the refused session is untouched");
        assertEquals("ordered 2 x tea = 60", first.resume(id, 1, "2").output(), "the first build still resumes it");
        return withoutBuild(refused.reason());
    }

    /** {@code reason} without its last part, " (the stream is of build ...)". */
    private static String withoutBuild(String reason) {
        int at = reason.lastIndexOf(" (the stream is of build ");
        return at < 0 ? reason : reason.substring(0, at);
    }

    /** A change that every frame of the first build fits: a statement added after the site. */
    private static final String FITS = withQuantity("""
                    int price = item.length() * 10;
                    String many = self.ret("how many " + item + " at " + price + "?");
                    many = many.trim() + "0";
                    return many + " x " + item + " = " + Integer.parseInt(many) * price;
            """);

    /** Lines and comments move the code; the weaver's fingerprint, which ignores lines, stays: the exact rule takes it. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void linesAndCommentsAddedBeforeTheSiteOnlyMoveIt(Engine engine) throws Exception {
        String moved = FIRST.replace("    String quantity(", "    // asks how many\n\n\n    String quantity(");
        assertEquals("ordered 2 x tea = 60", resumedOn("moved", moved, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aStatementAddedAfterTheSiteRunsOnResume(Engine engine) throws Exception {
        assertEquals("ordered 20 x tea = 600", resumedOn("after", FITS, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aStatementAddedBeforeTheSiteDoesNotRunForTheStoredFrame(Engine engine) throws Exception {
        String before = withQuantity("""
                        int price = item.length() * 10;
                        System.setProperty("evolve.sessions.before", item);
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item + " = " + Integer.parseInt(many) * price;
                """);
        System.clearProperty("evolve.sessions.before");
        assertEquals("ordered 2 x tea = 60", resumedOn("before", before, engine));
        assertEquals(null, System.getProperty("evolve.sessions.before"));
    }

    /** The call moved above the statement before it: the stored price is dropped, the new code computes its own. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aCallMovedAboveAStatementLeavesWhatItComputesToTheNewCode(Engine engine) throws Exception {
        String moved = withQuantity("""
                        String many = self.ret("how many " + item + "?");
                        int price = item.length() * 100;
                        return many + " x " + item + " = " + Integer.parseInt(many) * price;
                """);
        assertEquals("ordered 2 x tea = 600", resumedOn("call-moved", moved, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aVariableTheNewCodeNoLongerReadsIsDropped(Engine engine) throws Exception {
        String removed = withQuantity("""
                        int price = item.length() * 10;
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item;
                """);
        assertEquals("ordered 2 x tea", resumedOn("removed", removed, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aNewVariableLiveAtTheSiteIsRefusedByName(Engine engine) throws Exception {
        String added = withQuantity("""
                        int price = item.length() * 10;
                        long total = 0;
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item + " = " + (total + Integer.parseInt(many) * price);
                """);
        assertEquals(REFUSED + "`total` is live at " + quantity(lineOf(added, "self.ret(")) + " in the new code but"
                + " not in the saved frame", refusal("added", added, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aVariableWhoseTypeChangedIsRefused(Engine engine) throws Exception {
        String retyped = withQuantity("""
                        long price = item.length() * 10;
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item + " = " + Integer.parseInt(many) * price;
                """);
        assertEquals(REFUSED + "`price` is of type long at " + quantity(lineOf(retyped, "self.ret(")) + " in the new"
                + " code and was of type int in the saved frame", refusal("retyped", retyped, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSiteWhoseCallIsMadeTwiceCannotBeFound(Engine engine) throws Exception {
        String twice = withQuantity("""
                        int price = item.length() * 10;
                        self.ret("which " + item + "?");
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item + " = " + Integer.parseInt(many) * price;
                """);
        assertEquals(REFUSED + "the frame saved at " + quantity(lineOf(FIRST, "self.ret(")) + " is suspended in call 1"
                + " of 1 of dev.weft.AsymCoroutine.ret there, and the new code makes 2: which one it is cannot be told",
                refusal("twice", twice, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRenamedMethodIsNoLongerThere(Engine engine) throws Exception {
        String renamed = FIRST.replace("quantity(", "howMany(");
        String refusal = refusal("renamed", renamed, engine);
        assertTrue(refusal.startsWith("method " + NAME + ".quantity(Ldev/weft/AsymCoroutine;Ljava/lang/String;)"
                + "Ljava/lang/String; does not exist here or is not woven"), refusal);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMethodAddedElsewhereInTheClassChangesNoFrame(Engine engine) throws Exception {
        String added = FIRST.replace("    String quantity(", "    static int twice(int n) {\n        return 2 * n;\n"
                + "    }\n\n    String quantity(");
        assertEquals("ordered 2 x tea = 60", resumedOn("elsewhere", added, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aLambdaAddedBeforeTheSiteIsNoVariableLiveThere(Engine engine) throws Exception {
        String lambda = withQuantity("""
                        int price = item.length() * 10;
                        java.util.function.Supplier<String> loud = () -> item.toUpperCase();
                        System.setProperty("evolve.sessions.lambda", loud.get());
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item + " = " + Integer.parseInt(many) * price;
                """);
        assertEquals("ordered 2 x tea = 60", resumedOn("lambda", lambda, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aLoopAroundTheSiteMakesVariablesLiveThereThatTheStoredFrameDidNotKeep(Engine engine) throws Exception {
        String loop = withQuantity("""
                        int price = item.length() * 10;
                        String many = null;
                        for (int round = 0; round < 1; round++) {
                            many = self.ret("how many " + item + " at " + price + "?");
                        }
                        return many + " x " + item + " = " + Integer.parseInt(many) * price;
                """);
        assertEquals(REFUSED + "`self` is live at " + quantity(lineOf(loop, "self.ret(")) + " in the new code but not"
                + " in the saved frame", refusal("loop", loop, engine));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aNodeThatDoesNotAcceptChangedCodeRefusesEvenAFittingChange(Engine engine) throws Exception {
        String id = startedOnTheFirstBuild(engine);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class,
                () -> node(build("after", FITS), engine, false).resume(id, 1, "2"));
        assertTrue(refused.reason().contains(" has other code here (fingerprint ") && refused.reason().contains(
                "; a node that accepts changed code resumes its frames where they still fit"), refused.reason());
        assertTrue(node(build("after", FITS), engine, false).acceptedBuilds().isEmpty());
    }

    /** Each engine on each store. */
    static Stream<org.junit.jupiter.params.provider.Arguments> enginesAndStores() {
        return Stream.of(Engine.values()).flatMap(engine -> Stream.of(Store.values())
                .map(kind -> org.junit.jupiter.params.provider.Arguments.of(engine, kind)));
    }

    /** The node records what it accepted, once: the first build, and itself. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("enginesAndStores")
    void aStepOnChangedCodeRecordsTheBuildAndTheNode(Engine engine, Store kind) throws Exception {
        use(kind);
        String id = startedOnTheFirstBuild(engine);
        String second = startedOnTheFirstBuild(engine);
        String firstBuild = node(build("first", FIRST), engine, false).status(id).orElseThrow().build();
        Sessions changed = node(build("after", FITS), engine, true);
        assertTrue(changed.acceptedBuilds().isEmpty());
        assertEquals("ordered 20 x tea = 600", changed.resume(id, 1, "2").output());
        List<Sessions.AcceptedBuild> accepted = changed.acceptedBuilds();
        assertEquals(1, accepted.size(), accepted.toString());
        assertEquals(firstBuild, accepted.get(0).build());
        assertEquals("node-evolve-after", accepted.get(0).node());
        assertEquals("ordered 40 x tea = 1200", changed.resume(second, 1, "4").output());
        assertEquals(accepted, changed.acceptedBuilds(), "recorded once per build and node");
    }

    /**
     * The command's dry run lists what each node would do with each stored session, changing no
     * row; {@code --move} moves those that fit onto the node's code, sealed, at the same version,
     * without running a step; the others stay for the first build's nodes.
     */
    @ParameterizedTest
    @EnumSource(Store.class)
    void theCommandListsEachSessionsVerdictAndMovesThoseThatFit(Store kind) throws Exception {
        use(kind);
        Path keyFile = Files.write(directory.resolve("key"), "0123456789abcdef0123456789abcdef".getBytes(
                StandardCharsets.US_ASCII));
        SecretKeySpec key = new SecretKeySpec(Files.readAllBytes(keyFile), "HmacSHA256");
        ClassLoader firstCode = build("first", FIRST);
        Sessions first = Sessions.builder(store).classLoader(firstCode).engine(Engine.WOVEN).sealWith(key).build();
        String fits = first.start(orderFlow(firstCode), "tea").id();
        String other = first.start(orderFlow(firstCode), "coffee").id();
        String firstBuild = first.status(fits).orElseThrow().build();
        String after = withQuantity("""
                        int price = item.length() * 10;
                        long total = 0;
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item + " = " + (total + Integer.parseInt(many) * price);
                """);
        ClassLoader refusing = build("added", after);
        ClassLoader fitting = build("after", FITS);
        Map<String, Object> rowBefore;
        try (var connection = connection()) {
            rowBefore = StoredRows.read(connection, fits);
        }

        String refused = command(refusing, keyFile, "changes");
        assertTrue(refused.startsWith("ID\tVERSION\tBUILD\tTHIS NODE\n"), refused);
        assertTrue(refused.contains(fits + "\t1\t" + firstBuild + "\trefused: " + REFUSED + "`total` is live at "
                + quantity(lineOf(after, "self.ret(")) + " in the new code but not in the saved frame"), refused);
        String listed = command(fitting, keyFile, "changes");
        assertTrue(listed.contains(fits + "\t1\t" + firstBuild + "\t" + RowReader.CHANGED_CODE + "\n"), listed);
        assertTrue(listed.contains(other + "\t1\t" + firstBuild + "\t" + RowReader.CHANGED_CODE + "\n"), listed);
        try (var connection = connection()) {
            assertTrue(StoredRows.same(rowBefore, StoredRows.read(connection, fits)), "the dry run changed no row");
        }
        assertEquals(listed, command(fitting, keyFile, "changes"), "nor the list");
        assertEquals(firstBuild, first.status(fits).orElseThrow().build());

        String moved = command(fitting, keyFile, "changes", "--move");
        assertTrue(moved.startsWith("ID\tVERSION\tBUILD\tTHIS NODE\tMOVE\n"), moved);
        assertTrue(moved.contains(fits + "\t1\t" + firstBuild + "\t" + RowReader.CHANGED_CODE + "\tmoved\n"), moved);
        Sessions fittingNode = Sessions.builder(store).classLoader(fitting).engine(Engine.NATIVE).sealWith(key)
                .build();
        SessionInfo movedInfo = fittingNode.status(fits).orElseThrow();
        assertEquals(1, movedInfo.version(), "a move is no step");
        assertNotEquals(firstBuild, movedInfo.build());
        assertTrue(fittingNode.refusal(fits).isEmpty(), "the moved session is of this node's code: no option needed");
        assertTrue(first.refusal(fits).isPresent(), "the first build's nodes no longer take it");
        String afterMove = command(fitting, keyFile, "changes");
        assertTrue(afterMove.contains(fits + "\t1\t" + movedInfo.build() + "\t" + RowReader.SAME_CODE + "\n"),
                afterMove);
        assertEquals("ordered 20 x tea = 600", fittingNode.resume(fits, 1, "2").output());
        assertEquals("ordered 30 x coffee = 1800", fittingNode.resume(other, 1, "3").output());
        assertEquals(List.of(firstBuild), fittingNode.acceptedBuilds().stream().map(Sessions.AcceptedBuild::build)
                .toList());
    }

    /** A move that the frames do not fit is refused, and a node that does not accept changed code moves nothing. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMoveIsRefusedLikeAStep(Engine engine) throws Exception {
        String id = startedOnTheFirstBuild(engine);
        String added = withQuantity("""
                        int price = item.length() * 10;
                        long total = 0;
                        String many = self.ret("how many " + item + " at " + price + "?");
                        return many + " x " + item + " = " + (total + Integer.parseInt(many) * price);
                """);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class,
                () -> node(build("added", added), engine, true).moveToThisBuild(id, 1));
        assertTrue(refused.reason().startsWith(REFUSED + "`total` is live at "), refused.reason());
        IllegalStateException notAccepting = assertThrows(IllegalStateException.class,
                () -> node(build("added", added), engine, false).moveToThisBuild(id, 1));
        assertEquals("cannot move session " + id + " to this node's code: this node does not accept changed code"
                + " (Sessions.Builder.acceptChangedCode())", notAccepting.getMessage());
        assertThrows(SessionConflictException.class, () -> node(build("added", added), engine, true)
                .moveToThisBuild(id, 2));
        assertFalse(node(build("first", FIRST), engine, true).moveToThisBuild(id, 1), "its own code: nothing to move");
        assertEquals(1, node(build("first", FIRST), engine, false).status(id).orElseThrow().version());
    }

    private String command(ClassLoader code, Path keyFile, String... what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = Stream.of(storeArguments.stream(), Stream.of("--key", keyFile.toString()), Stream.of(what))
                .flatMap(a -> a).toArray(String[]::new);
        int status = SessionsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), code);
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
