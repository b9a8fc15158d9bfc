package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Engine;
import dev.weft.sessions.flows.Echo;
import dev.weft.sessions.flows.EngineTrail;
import dev.weft.sessions.flows.Gate;
import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Marked;
import dev.weft.sessions.flows.Questionnaire;
import java.io.ByteArrayInputStream;
import java.io.ObjectInputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What every store must do, on each engine: sessions start, step, finish, fail and are listed and
 * removed the same way on each store and engine, a step's own writes commit with it, and a
 * session moves between nodes of the two engines. One abstract subclass per store, and one
 * concrete subclass of that per engine ({@code Native*} and {@code Woven*}).
 */
abstract class SessionStoreContract {

    SessionStore store;
    Sessions sessions;

    /** A store over an empty database, with a {@code ledger} table. */
    abstract SessionStore openStore() throws Exception;

    /** A plain connection to the store's database, for checking what the steps wrote. */
    abstract Connection connect() throws SQLException;

    /** The engine of this suite's nodes: every {@link Sessions} it builds runs its steps on it. */
    abstract Engine engine();

    /** A builder of a node on {@link #engine()}. */
    Sessions.Builder builder() {
        return Sessions.builder(store).engine(engine());
    }

    /** Whether another process's (or another {@link Sessions}') step of a session makes a resume busy rather than wait. */
    abstract boolean rowLocks();

    /** Another node's store on this suite's database: nothing it reads is cached yet. */
    abstract SessionStore reopen();

    /** How {@link SessionsCommand} is told this suite's store. */
    abstract List<String> commandStore();

    @BeforeEach
    void open() throws Exception {
        store = openStore();
        sessions = builder().build();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS ledger (session VARCHAR(64), step INT, input VARCHAR(100))");
        }
    }

    @AfterEach
    void close() {
        store.close();
    }

    // ---------------------------------------------------------------- the life of a session

    @Test
    void startRunsTheBodyToItsFirstRetAndStoresIt() {
        SessionStep<String> step = sessions.start(new Questionnaire(), null);
        assertEquals("What is your name?", step.output());
        assertEquals(1, step.version());
        assertFalse(step.finished());
        SessionInfo info = sessions.status(step.id()).orElseThrow();
        assertEquals(SessionStatus.SUSPENDED, info.status());
        assertEquals(1, info.version());
        assertEquals("name", info.point());
        assertNotNull(info.build());
        assertNull(info.failure());
        assertEquals(List.of(step.id()), sessions.list().stream().map(SessionInfo::id).toList());
        assertEquals("What is your name?", sessions.lastOutput(step.id()).orElseThrow());
        assertTrue(sessions.lastOutput("no-such-id").isEmpty());
    }

    @Test
    void eachResumeRunsOneStepAndAFinishedSessionIsDeleted() {
        SessionStep<String> step = sessions.start(new Questionnaire(), null);
        String id = step.id();
        assertEquals("Where do you live, Ada?", sessions.<String, String>resume(id, "Ada").output());
        assertEquals("How old are you?", sessions.<String, String>resume(id, "London").output());
        SessionStep<String> retry = sessions.resume(id, "thirty-six");
        assertEquals("How old are you? (a number, please)", retry.output());
        assertEquals(4, retry.version());
        SessionStep<String> last = sessions.resume(id, "36");
        assertTrue(last.finished());
        assertEquals("Ada from London, 36", last.output());
        assertEquals(5, last.version());
        assertTrue(sessions.status(id).isEmpty(), "a finished session is deleted");
        SessionNotFoundException gone = assertThrows(SessionNotFoundException.class, () -> sessions.resume(id, "x"));
        assertTrue(gone.getMessage().contains(id), gone.getMessage());
    }

    /** Retries, retry and cancel ({@link SessionFailuresContract}), on this suite's store and engine. */
    @Nested
    class Failures extends SessionFailuresContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** Messages ({@link SessionMessagesContract}), on this suite's store and engine. */
    @Nested
    class Messages extends SessionMessagesContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** Waits and workers ({@link SessionWaitsContract}), on this suite's store and engine. */
    @Nested
    class Waits extends SessionWaitsContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** Child sessions and deadlines ({@link SessionChildrenContract}), on this suite's store and engine. */
    @Nested
    class ChildSessions extends SessionChildrenContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** The step history ({@link SessionHistoryContract}), on this suite's store and engine. */
    @Nested
    class History extends SessionHistoryContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** Finding sessions ({@link SessionListingContract}), on this suite's store and engine. */
    @Nested
    class Listings extends SessionListingContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** Metrics and traces ({@link SessionObservationsContract}), on this suite's store and engine. */
    @Nested
    class Observations extends SessionObservationsContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** Stored frames as an operator reads them ({@link SessionStackContract}), on this suite's store and engine. */
    @Nested
    class Stacks extends SessionStackContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    /** The console ({@link SessionConsoleContract}), on this suite's store and engine. */
    @Nested
    class Console extends SessionConsoleContract {
        @Override
        SessionStoreContract suite() {
            return SessionStoreContract.this;
        }
    }

    // ---------------------------------------------------------------- engines

    private Engine otherEngine() {
        return engine() == Engine.NATIVE ? Engine.WOVEN : Engine.NATIVE;
    }

    @Test
    void stepsRunOnTheEngineTheNodeIsBuiltWith() {
        SessionStep<String> step = sessions.start(new EngineTrail(), "a");
        assertEquals("a on " + engine(), step.output());
        assertEquals("a b on " + engine(), sessions.<String, String>resume(step.id(), "b").output());
    }

    /** A deployment mid-way through moving engines: each node resumes what the other stored, both ways. */
    @Test
    void aSessionStoredByANodeOfOneEngineIsResumedByANodeOfTheOther() {
        Engine other = otherEngine();
        Sessions otherNode = builder().engine(other).build();
        SessionStep<String> step = sessions.start(new EngineTrail(), "a");
        String id = step.id();
        assertEquals("a b on " + other, otherNode.<String, String>resume(id, 1, "b").output());
        assertEquals("a b c on " + engine(), sessions.<String, String>resume(id, 2, "c").output());
        assertEquals("a b c d on " + other, otherNode.<String, String>resume(id, 3, "d").output());
        SessionStep<String> last = sessions.resume(id, 4, "end");
        assertTrue(last.finished());
        assertEquals("a b c d end, ended on " + engine(), last.output());
        assertTrue(sessions.status(id).isEmpty());
    }

    /** Resident coroutines stay on the engine they ran on; a step read from the store runs on the node's. */
    @Test
    void aResidentSessionThatANodeOfTheOtherEngineMovedOnRunsFromTheStore() {
        Sessions resident = builder().keepResident(10).build();
        Sessions otherNode = builder().engine(otherEngine()).build();
        String id = resident.start(new EngineTrail(), "a").id();
        assertEquals("a b on " + otherEngine(), otherNode.<String, String>resume(id, "b").output());
        assertEquals("a b c on " + engine(), resident.<String, String>resume(id, "c").output());
        assertEquals("a b c d on " + engine(), resident.<String, String>resume(id, "d").output());
    }

    /** Not woven: this test package is not among the woven ones (the pom weaves {@code flows}). */
    static final class NotWoven implements AsymRunnable<String, String>, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
            return self.ret("unwoven " + first);
        }
    }

    /**
     * A body that is not woven is never stored: the woven engine refuses to start it, naming its
     * class; the native engine runs its first step and cannot store it, and stores nothing.
     */
    @Test
    void aBodyThatIsNotWovenIsRefusedAndNothingIsStored() {
        if (engine() == Engine.WOVEN) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> sessions.start(new NotWoven(), "x"));
            assertTrue(refused.getMessage().contains("on the woven engine")
                    && refused.getMessage().contains(NotWoven.class.getName()), refused.getMessage());
        } else {
            SessionException refused = assertThrows(SessionException.class, () -> sessions.start(new NotWoven(), "x"));
            assertTrue(refused.getMessage().contains("cannot be stored")
                    && refused.getMessage().contains(NotWoven.class.getName()), refused.getMessage());
        }
        assertTrue(sessions.list().isEmpty(), "nothing stored: " + sessions.list());
        assertThrows(NullPointerException.class, () -> Sessions.builder(store).engine(null));
    }

    /** How many times a body that cannot be stored ran: never. */
    static final java.util.concurrent.atomic.AtomicInteger UNSTORABLE_RUNS = new java.util.concurrent.atomic.AtomicInteger();

    /** Not Serializable. */
    static final class Unstorable implements AsymRunnable<String, String> {
        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
            UNSTORABLE_RUNS.incrementAndGet();
            return self.ret(first);
        }
    }

    /** Serializable, with a field that is not. */
    static final class HoldsALock implements AsymRunnable<String, String>, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final Object lock = new Object();

        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
            UNSTORABLE_RUNS.incrementAndGet();
            synchronized (lock) {
                return first;
            }
        }
    }

    @Test
    void aBodyThatCannotBeStoredIsRefusedBeforeItRunsNamingItsClassAndWhatToDo() {
        IllegalArgumentException notSerializable = assertThrows(IllegalArgumentException.class,
                () -> sessions.start(new Unstorable(), "x"));
        assertEquals("cannot start a session with a " + Unstorable.class.getName() + " as its body: "
                + Unstorable.class.getName() + " does not implement java.io.Serializable; a session stores its body"
                + " with its frames, so the body's class must implement java.io.Serializable, and so must"
                + " everything its fields hold (mark a field that need not be stored transient); nothing ran or was"
                + " stored", notSerializable.getMessage());
        IllegalArgumentException field = assertThrows(IllegalArgumentException.class,
                () -> sessions.start("chosen", new HoldsALock(), "x"));
        assertTrue(field.getMessage().startsWith("cannot start a session with a " + HoldsALock.class.getName()
                + " as its body: it holds a java.lang.Object, which is not java.io.Serializable;"), field.getMessage());
        assertEquals(0, UNSTORABLE_RUNS.get());
        assertTrue(sessions.list().isEmpty(), "nothing stored: " + sessions.list());
    }

    // ---------------------------------------------------------------- sealed state

    static SecretKey key(int seed) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) seed);
        return new SecretKeySpec(bytes, "HmacSHA256");
    }

    @Test
    void sealedStateResumesWithItsKeyAndAfterARotation() {
        Sessions old = builder().sealWith(key(1)).build();
        String id = old.start(new Questionnaire(), null).id();
        assertEquals("Where do you live, Ada?", old.<String, String>resume(id, "Ada").output());
        Sessions rotated = builder().sealWith(key(2), key(1)).build();
        assertEquals("How old are you?", rotated.<String, String>resume(id, "London").output());
        SessionRefusedException oldKeyOnly = assertThrows(SessionRefusedException.class, () -> old.resume(id, "36"));
        assertTrue(oldKeyOnly.getMessage().contains(id), oldKeyOnly.getMessage());
        assertEquals("Ada from London, 36", rotated.<String, String>resume(id, "36").output());
    }

    @Test
    void aNodeWithAKeyRefusesUnsealedStateAndOneWithoutRefusesSealedState() {
        String unsealed = sessions.start(new Questionnaire(), null).id();
        Sessions sealing = builder().sealWith(key(1)).build();
        String sealed = sealing.start(new Questionnaire(), null).id();
        SessionRefusedException unsealedRow = assertThrows(SessionRefusedException.class,
                () -> sealing.resume(unsealed, "Ada"));
        assertTrue(unsealedRow.getMessage().startsWith("session " + unsealed + ": refused by this node, left untouched:"
                + " column seal is NULL: the row was not sealed"), unsealedRow.getMessage());
        SessionRefusedException sealedRow = assertThrows(SessionRefusedException.class,
                () -> sessions.resume(sealed, "Ada"));
        assertTrue(sealedRow.getMessage().contains("column seal is set: the row was sealed with a key, and this node"
                + " has none"), sealedRow.getMessage());
        assertEquals(1, sessions.status(unsealed).orElseThrow().version(), "a refused session is left as it was");
        assertEquals(1, sealing.status(sealed).orElseThrow().version());
        assertEquals("Where do you live, Ada?", sealing.<String, String>resume(sealed, "Ada").output());
    }

    @Test
    void aTamperedSealedStateIsRefusedAndLeftAsItWas() throws SQLException {
        Sessions sealing = builder().sealWith(key(1)).build();
        String id = sealing.start(new Questionnaire(), null).id();
        byte[] tampered = storedState(id);
        tampered[tampered.length / 2] ^= 1;
        overwriteState(id, tampered);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> sealing.resume(id, "Ada"));
        assertTrue(refused.getMessage().contains("session " + id + ": ")
                && refused.getMessage().contains("column state differs from what was sealed"), refused.getMessage());
        assertArrayEquals(tampered, storedState(id), "left as it was");
        assertThrows(SessionRefusedException.class, () -> sealing.status(id));
    }

    // ---------------------------------------------------------------- sealed rows

    Map<String, Object> storedRow(String id) throws SQLException {
        try (Connection connection = connect()) {
            return StoredRows.read(connection, id);
        }
    }

    void setColumn(String id, String column, Object value) throws SQLException {
        try (Connection connection = connect()) {
            assertEquals(1, StoredRows.set(connection, id, column, value));
        }
    }

    void putRow(String id, Map<String, Object> row) throws SQLException {
        try (Connection connection = connect()) {
            StoredRows.put(connection, id, row);
        }
    }

    /** Asserts that every way in refuses session {@code id} with {@code reason} and leaves its row as it was. */
    private void assertRefused(Sessions node, String id, String reason) throws SQLException {
        Map<String, Object> before = storedRow(id);
        SessionRefusedException resumed = assertThrows(SessionRefusedException.class, () -> node.resume(id, "London"));
        assertTrue(resumed.getMessage().startsWith("session " + id + ": refused by this node, left untouched: " + reason),
                resumed.getMessage());
        assertTrue(resumed.reason().startsWith(reason), resumed.reason());
        SessionRefusedException status = assertThrows(SessionRefusedException.class, () -> node.status(id));
        assertEquals(resumed.reason(), status.reason());
        assertEquals(id, assertThrows(SessionRefusedException.class, node::list).sessionId());
        assertThrows(SessionRefusedException.class, () -> node.lastOutput(id));
        assertEquals(resumed.reason(), node.refusal(id).orElseThrow());
        assertTrue(StoredRows.same(before, storedRow(id)), "left as it was: " + StoredRows.describe(storedRow(id)));
    }

    @Test
    void eachSealedColumnChangedInTheStoreIsRefusedNamingItAndTheRowIsLeftAsItWas() throws SQLException {
        Sessions sealing = builder().sealWith(key(1)).build();
        String id = sealing.start(new Questionnaire(), null).id();
        sealing.resume(id, "Ada");
        String other = sealing.start(new Questionnaire(), null).id();
        sealing.resume(other, "Bob");
        Map<String, Object> original = storedRow(id);
        Map<String, Object> others = storedRow(other);
        for (String column : SEALED_COLUMNS.subList(0, SEALED_COLUMNS.size() - 1)) {
            setColumn(id, column, sealedColumnEdit(column, original, others));
            assertRefused(sealing, id, "column " + column + " differs from what was sealed: changed in the"
                    + " store, or taken from another session or another version of this one");
            putRow(id, original);
        }
        assertEquals("How old are you?", sealing.<String, String>resume(id, "London").output(), "as it was, it resumes");
    }

    @Test
    void columnsOfAnOlderVersionAreRefusedAndAWholeOlderRowConflictsWithTheVersionAnswered() throws SQLException {
        Sessions sealing = builder().sealWith(key(1)).build();
        SessionStep<String> first = sealing.start(new Questionnaire(), null);
        String id = first.id();
        Map<String, Object> atFirst = storedRow(id);
        SessionStep<String> second = sealing.resume(id, first.version(), "Ada");
        Map<String, Object> atSecond = storedRow(id);
        for (String column : List.of("point", "point_values", "state", "output")) {
            setColumn(id, column, atFirst.get(column));
        }
        assertRefused(sealing, id, "columns point, point_values, state, output differ from what was sealed");
        putRow(id, atFirst);
        assertEquals(1, sealing.status(id).orElseThrow().version(), "a whole row the key sealed, as a backup holds it");
        SessionConflictException rolledBack = assertThrows(SessionConflictException.class,
                () -> sealing.resume(id, second.version(), "London"));
        assertEquals(1, rolledBack.currentVersion());
        putRow(id, atSecond);
        assertEquals("How old are you?", sealing.<String, String>resume(id, second.version(), "London").output());
    }

    @Test
    void anotherSessionsSealedRowUnderThisIdIsRefused() throws SQLException {
        Sessions sealing = builder().sealWith(key(1)).build();
        String id = sealing.start(new Questionnaire(), null).id();
        String other = sealing.start(new Ledger(3), "a").id();
        Map<String, Object> moved = new java.util.LinkedHashMap<>(storedRow(other));
        moved.put("id", id);
        putRow(id, moved);
        assertRefused(sealing, id, "column id differs from what was sealed");
        assertEquals(List.of("1:a"), ledger(other), "the moved row ran nothing");
        assertEquals(List.of(), ledger(id));
    }

    @Test
    void aRowWithoutARowSealIsRefusedByANodeWithAKeyWithItsReason() throws SQLException {
        Sessions sealing = builder().sealWith(key(1)).build();
        String id = sealing.start(new Questionnaire(), null).id();
        setColumn(id, "seal", null);
        assertRefused(sealing, id, "column seal is NULL: the row was not sealed (written by a node without a key, or"
                + " before rows were sealed, when only the state was: such a row is resumed only by a node of that"
                + " earlier version)");
        setColumn(id, "seal", new byte[RowSeal.LENGTH - 1]);
        assertRefused(sealing, id, "column seal holds " + (RowSeal.LENGTH - 1) + " bytes that are not a row seal");
    }

    @Test
    void aRowOfTheStateOnlySealIsRefusedByANodeWithAKeyAndCannotBeReadWithoutOne() throws Exception {
        Sessions sealing = builder().sealWith(key(1)).build();
        String id = sealing.start(new Echo(), "hello").id();
        AsymCoroutine<String, String> echo = new AsymCoroutine<>(new Echo(), engine());
        assertEquals("hello", echo.call("hello"));
        java.io.ByteArrayOutputStream stateOnly = new java.io.ByteArrayOutputStream();
        try (dev.weft.CoroutineOutputStream<String, String> out = new dev.weft.CoroutineOutputStream<>(stateOnly,
                key(1))) {
            out.writeAsymCoroutine(echo);
        }
        setColumn(id, "state", stateOnly.toByteArray());
        setColumn(id, "seal", null);
        assertRefused(sealing, id, "column seal is NULL: the row was not sealed (written by a node without a key, or"
                + " before rows were sealed, when only the state was");
        Map<String, Object> before = storedRow(id);
        SessionRefusedException unkeyed = assertThrows(SessionRefusedException.class, () -> sessions.resume(id, "x"));
        assertTrue(unkeyed.reason().startsWith("its state cannot be restored here: java.io.StreamCorruptedException:"
                + " cannot read a coroutine: the stream is sealed"), unkeyed.reason());
        assertTrue(StoredRows.same(before, storedRow(id)), "left as it was");
    }

    @Test
    void aFailedRowWithoutItsFailureIsRefusedNamingTheColumn() throws SQLException {
        String id = sessions.start(new Questionnaire(), null).id();
        setColumn(id, "status", "FAILED");
        assertRefused(sessions, id, "column failure is NULL, but column status says FAILED");
    }

    @Test
    void aRowSealedWithAKeyThisNodeDoesNotHaveIsRefusedSayingSo() throws SQLException {
        String id = builder().sealWith(key(1)).build().start(new Questionnaire(), null).id();
        assertRefused(builder().sealWith(key(3)).build(), id, "column seal matches none of this node's 1 key(s)");
    }

    @Test
    void aStatusOrVersionOutOfRangeIsRefusedNamingTheColumnWithOrWithoutAKey() throws SQLException {
        Sessions sealing = builder().sealWith(key(1)).build();
        for (Sessions node : List.of(sessions, sealing)) {
            String id = node.start(new Questionnaire(), null).id();
            Map<String, Object> original = storedRow(id);
            setColumn(id, "status", "RUNNING");
            assertRefused(node, id, "column status holds 'RUNNING', not one of [SUSPENDED, FINISHED, FAILED, CANCELLED]");
            for (long version : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
                putRow(id, original);
                setColumn(id, "version", version);
                assertRefused(node, id, "column version holds " + version + ", not the number of a step");
            }
            assertTrue(node.remove(id), "a row refused is removed all the same");
            assertTrue(node.status(id).isEmpty());
        }
    }

    @Test
    void aManifestChangedInTheStoreIsRefusedWithItsReasonAndTheRowIsLeftAsItWas() throws SQLException {
        String id = sessions.start(new Questionnaire(), null).id();
        Map<String, Object> original = storedRow(id);
        String build = (String) original.get("build");
        String manifest;
        try (Connection connection = connect()) {
            manifest = StoredRows.builds(connection).get(build);
        }
        String huge = "z".repeat(Builds.MAX_MANIFEST + 1);
        Map<String, String> hostile = new java.util.LinkedHashMap<>();
        hostile.put("com.example.Gone\trun()V\tabc", "class com.example.Gone does not exist here or cannot be loaded"
                + " (ClassNotFoundException)");
        hostile.put(manifest + "\nnot a line", "the stored manifest is malformed: not a line");
        hostile.put(huge, "the stored manifest of build " + Builds.fingerprint(huge) + " has " + huge.length()
                + " characters, more than the " + Builds.MAX_MANIFEST + " a node reads");
        for (Map.Entry<String, String> entry : hostile.entrySet()) {
            String hashed = Builds.fingerprint(entry.getKey());
            try (Connection connection = connect()) {
                StoredRows.setBuild(connection, hashed, entry.getKey());
            }
            setColumn(id, "build", hashed);
            assertBuildRefused(id, hashed, entry.getValue());
            putRow(id, original);
        }
        try (Connection connection = connect()) {
            StoredRows.setBuild(connection, build, "com.example.Gone\trun()V\tabc");
        }
        assertBuildRefused(id, build, "the stored manifest of build " + build + " is not that build's (it hashes to "
                + Builds.fingerprint("com.example.Gone\trun()V\tabc") + "): column manifest or table weft_builds"
                + " was changed");
        try (Connection connection = connect()) {
            StoredRows.setBuild(connection, build, null);
        }
        assertBuildRefused(id, build, "the manifest of build " + build + " is not in the store (table weft_builds)");
        try (Connection connection = connect()) {
            StoredRows.setBuild(connection, build, manifest);
        }
        try (SessionStore node = reopen()) {
            assertEquals("Where do you live, Ada?", Sessions.builder(node).engine(engine()).build()
                    .<String, String>resume(id, "Ada").output());
        }
    }

    /** Asserts that a node new to the store refuses session {@code id} of {@code build} with {@code reason}, and lists why. */
    private void assertBuildRefused(String id, String build, String reason) throws SQLException {
        Map<String, Object> before = storedRow(id);
        try (SessionStore node = reopen()) {
            Sessions fresh = Sessions.builder(node).engine(engine()).build();
            SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> fresh.resume(id, "Ada"));
            assertEquals("session " + id + ": refused by this node, left untouched: " + reason
                    + "; no upgrade is registered for its point 'name' (stored build " + build + ")", refused.getMessage());
            assertEquals(reason, fresh.refusal(id).orElseThrow());
            assertEquals(reason, fresh.builds().stream().filter(b -> build.equals(b.build())).findFirst().orElseThrow()
                    .refusal());
            assertEquals(SessionStatus.SUSPENDED, fresh.status(id).orElseThrow().status());
        }
        assertTrue(StoredRows.same(before, storedRow(id)), "left as it was");
    }

    @Test
    void theCommandListsEachSessionWithItsVerdictWithTheKeyOrWithoutIt(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path directory) throws Exception {
        Sessions sealing = builder().sealWith(key(1)).build();
        String good = sealing.start(new Questionnaire(), null).id();
        String bad = sealing.start("line\nbreak", new Questionnaire(), null).id();
        setColumn(bad, "output", StateCodec.value("Where is your account number?"));
        java.nio.file.Path keyFile = java.nio.file.Files.write(directory.resolve("key"), key(1).getEncoded());
        String withKey = command("--key", keyFile.toString(), "list");
        assertTrue(withKey.contains("\n" + good + "\tSUSPENDED\t1\t"), withKey);
        assertTrue(withKey.contains("\tname\t-\taccepted\n"), withKey);
        assertTrue(withKey.contains("\nline?break\t?\t?\t?\t?\t?\trefused: column output differs from what was sealed"),
                withKey);
        String withoutKey = command("list");
        assertEquals(2, withoutKey.lines().filter(line -> line.endsWith("\trefused: column seal is set: the row was"
                + " sealed with a key, and this node has none")).count(), withoutKey);
        assertTrue(command("--key", keyFile.toString(), "builds").contains("\t2\taccepted"));
    }

    private String command(String... args) {
        List<String> all = new ArrayList<>(commandStore());
        all.addAll(List.of(args));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int status = SessionsCommand.run(all.toArray(String[]::new), new java.io.PrintStream(out, true),
                new java.io.PrintStream(err, true), getClass().getClassLoader());
        assertEquals(0, status, err.toString());
        return out.toString();
    }

    // ---------------------------------------------------------------- a fuzz test of whole stored rows

    /** Cases per kind of row: {@code -Dweft.rowfuzz.cases=20000} for a long run. */
    private static final int FUZZ_CASES = Integer.getInteger("weft.rowfuzz.cases", 100);

    @Test
    void everyStoredRowChangedBehindTheSessionsBackIsRefusedOrTakenAsData(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path directory) throws Exception {
        long seed = Long.getLong("weft.rowfuzz.seed", 20261124L);
        RowFuzz fuzz = new RowFuzz(() -> {
            try {
                return connect();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, this::reopen, engine(), commandStore());
        fuzz.run(seed, FUZZ_CASES, null, null);
        fuzz.run(seed, FUZZ_CASES, key(7), RowFuzz.keyFile(directory, key(7)));
        StringBuilder counts = new StringBuilder("row fuzz, " + getClass().getSimpleName() + ", " + FUZZ_CASES
                + " cases per kind of row, seed " + seed + ":\n");
        fuzz.outcomes().forEach((outcome, count) -> counts.append(String.format("%7d  %s%n", count, outcome)));
        System.out.print(counts);
        assertTrue(fuzz.outcomes().keySet().stream().anyMatch(o -> o.startsWith("sealed rows, resume: refused")),
                counts.toString());
        assertTrue(fuzz.outcomes().keySet().stream().anyMatch(o -> o.startsWith("plain rows, resume: accepted")),
                counts.toString());
    }

    @Test
    void aKeptFinishedSessionAnswersAResentLastInputWithItsOutput() {
        Sessions keeping = builder().keepFinished(true).build();
        SessionStep<String> step = keeping.start(new Ledger(2), "a");
        step = keeping.resume(step.id(), step.version(), "b");
        assertTrue(step.finished());
        SessionInfo info = keeping.status(step.id()).orElseThrow();
        assertEquals(SessionStatus.FINISHED, info.status());
        assertNull(info.build());
        long version = step.version();
        String id = step.id();
        SessionConflictException resent = assertThrows(SessionConflictException.class,
                () -> keeping.resume(id, version - 1, "b"));
        assertEquals("done after 2", resent.lastOutput());
        assertEquals(SessionStatus.FINISHED, resent.status());
        assertEquals(2, ledger(id).size(), "the resent input ran nothing");
        assertTrue(keeping.remove(id));
        assertTrue(keeping.status(id).isEmpty());
    }

    @Test
    void aResumeNamingAnOldVersionRunsNothingAndSaysWhereTheSessionIs() {
        SessionStep<String> first = sessions.start(new Ledger(5), "a");
        SessionStep<String> second = sessions.resume(first.id(), first.version(), "b");
        SessionConflictException stale = assertThrows(SessionConflictException.class,
                () -> sessions.resume(first.id(), first.version(), "b again"));
        assertEquals(2, stale.currentVersion());
        assertEquals(SessionStatus.SUSPENDED, stale.status());
        assertEquals(second.output(), stale.lastOutput());
        assertTrue(stale.getMessage().contains(first.id()), stale.getMessage());
        assertEquals(List.of("1:a", "2:b"), ledger(first.id()));
    }

    @Test
    void aResumeOfAnUnknownSessionSaysSo() {
        SessionNotFoundException missing = assertThrows(SessionNotFoundException.class,
                () -> sessions.resume("no-such-id", "x"));
        assertEquals("no-such-id", missing.sessionId());
        assertTrue(missing.getMessage().contains("no-such-id"), missing.getMessage());
        assertTrue(sessions.status("no-such-id").isEmpty());
        assertFalse(sessions.remove("no-such-id"));
    }

    // ---------------------------------------------------------------- failures

    @Test
    void aBodysExceptionIsStoredAsTheSessionsFailureAndItsWritesAreUndone() {
        SessionStep<String> step = sessions.start(new Ledger(5), "a");
        String id = step.id();
        SessionFailedException failed = assertThrows(SessionFailedException.class, () -> sessions.resume(id, "boom"));
        assertTrue(failed.getCause() instanceof IllegalStateException, String.valueOf(failed.getCause()));
        assertTrue(failed.getMessage().contains(id) && failed.getMessage().contains("boom"), failed.getMessage());
        SessionInfo info = sessions.status(id).orElseThrow();
        assertEquals(SessionStatus.FAILED, info.status());
        assertEquals(2, info.version());
        assertTrue(info.failure().contains("the body refused input boom at step 2"), info.failure());
        assertTrue(info.failure().contains("at dev.weft.sessions.flows.Ledger.run"), info.failure());
        assertEquals(List.of("1:a"), ledger(id), "the failed step's own write was rolled back");
        SessionFailedException again = assertThrows(SessionFailedException.class, () -> sessions.resume(id, "c"));
        assertEquals(info.failure(), again.failure());
    }

    @Test
    void aBodyThatThrowsInItsFirstStepIsStoredAsFailedToo() {
        SessionFailedException failed = assertThrows(SessionFailedException.class,
                () -> sessions.start(new Ledger(3), "boom"));
        SessionInfo info = sessions.status(failed.sessionId()).orElseThrow();
        assertEquals(SessionStatus.FAILED, info.status());
        assertTrue(info.failure().contains("boom"), info.failure());
    }

    @Test
    void aStateThatCannotBeStoredLeavesTheSessionAndItsWritesAsTheyWere() {
        SessionStep<String> step = sessions.start(new Ledger(5), "a");
        String id = step.id();
        SessionException refused = assertThrows(SessionException.class, () -> sessions.resume(id, "hold"));
        assertTrue(refused.getMessage().contains(id) && refused.getMessage().contains("cannot be stored"),
                refused.getMessage());
        SessionInfo info = sessions.status(id).orElseThrow();
        assertEquals(SessionStatus.SUSPENDED, info.status());
        assertEquals(1, info.version());
        assertEquals(List.of("1:a"), ledger(id));
        assertEquals("after step 2", sessions.<String, String>resume(id, 1, "b").output());
        assertEquals(List.of("1:a", "2:b"), ledger(id));
    }

    // ---------------------------------------------------------------- named points

    @Test
    void aPointsPlainJdkValuesAreStoredWithIt() throws Exception {
        SessionStep<String> step = sessions.start(new Marked(), "plain");
        assertEquals("named plain", step.output());
        assertEquals("plain", sessions.status(step.id()).orElseThrow().point());
        Map<?, ?> values = pointValues(step.id());
        assertEquals(List.of("Ada", "Grace"), values.get("names"));
        assertEquals(LocalDate.of(2024, 1, 2), values.get("since"));
        assertArrayEquals(new int[] {1, 2}, (int[]) values.get("scores"));
        assertEquals(DayOfWeek.MONDAY, values.get("weekday"));
        assertEquals("named other", sessions.<String, String>resume(step.id(), "other").output());
        assertEquals("other", sessions.status(step.id()).orElseThrow().point());
        assertEquals(Map.of("input", "other"), pointValues(step.id()));
    }

    /** The values stored with session {@code id}'s point, read from its row as a node with other code would. */
    private Map<?, ?> pointValues(String id) throws Exception {
        try (Connection connection = connect();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT point_values FROM weft_sessions WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                assertTrue(rows.next());
                try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(rows.getBytes(1)))) {
                    return (Map<?, ?>) in.readObject();
                }
            }
        }
    }

    @Test
    void aPointsValueOfAnotherClassIsRefusedWhenSuspendingAndThePointBeforeStands() {
        String id = sessions.start(new Marked(), "plain").id();
        for (String input : List.of("custom", "nested", "array", "class")) {
            String answer = sessions.<String, String>resume(id, input).output();
            assertTrue(answer.startsWith("refused: session " + id + ": value '"), answer);
            assertTrue(answer.contains("of point '" + input + "' holds a " + Marked.Visitor.class.getName()), answer);
            assertTrue(answer.contains("not a JDK class"), answer);
            assertEquals("step", sessions.status(id).orElseThrow().point(), input);
        }
    }

    @Test
    void aPointsValueThatCannotBeSerializedIsRefusedWithItsClass() {
        String id = sessions.start(new Marked(), "plain").id();
        String answer = sessions.<String, String>resume(id, "unserializable").output();
        assertTrue(answer.startsWith("refused: session " + id + ": value 'lock' of point 'unserializable' holds a"
                + " java.lang.Object, which is not serializable"), answer);
        SessionInfo info = sessions.status(id).orElseThrow();
        assertEquals("step", info.point());
        assertEquals(2, info.version());
    }

    // ---------------------------------------------------------------- one step at a time

    @Test
    void aSecondResumeOfARunningSessionIsBusyAndRunsNothing() throws Exception {
        SessionStep<String> step = sessions.start(new Ledger(5), "a");
        String id = step.id();
        Gate.reset();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<SessionStep<String>> held = other.submit(() -> sessions.resume(id, "gate"));
            Gate.awaitArrival();
            SessionBusyException busy = assertThrows(SessionBusyException.class, () -> sessions.resume(id, "b"));
            assertTrue(busy.getMessage().contains(id) && busy.getMessage().contains("busy"), busy.getMessage());
            Gate.open();
            assertEquals("after step 2", held.get().output());
        } finally {
            Gate.open();
            other.shutdown();
        }
        assertEquals(List.of("1:a", "2:gate"), ledger(id));
    }

    @Test
    void aResumeThatWaitsRunsTheNextStepOnceTheRunningOneIsStored() throws Exception {
        Sessions waiting = builder().waitWhenBusy(Duration.ofMinutes(1)).build();
        SessionStep<String> step = waiting.start(new Ledger(5), "a");
        String id = step.id();
        Gate.reset();
        ExecutorService others = Executors.newFixedThreadPool(2);
        try {
            Future<SessionStep<String>> held = others.submit(() -> waiting.resume(id, "gate"));
            Gate.awaitArrival();
            Future<SessionStep<String>> next = others.submit(() -> waiting.resume(id, "b"));
            Gate.open();
            assertEquals(2, held.get().version());
            assertEquals(3, next.get().version());
            assertEquals("after step 3", next.get().output());
        } finally {
            Gate.open();
            others.shutdown();
        }
        assertEquals(List.of("1:a", "2:gate", "3:b"), ledger(id));
    }

    @Test
    void anotherNodesResumeOfARunningSessionNeverRunsTheSameStep() throws Exception {
        Sessions node1 = sessions;
        Sessions node2 = builder().build();
        SessionStep<String> step = node1.start(new Ledger(5), "a");
        String id = step.id();
        Gate.reset();
        ExecutorService others = Executors.newFixedThreadPool(2);
        try {
            Future<SessionStep<String>> held = others.submit(() -> node1.resume(id, 1, "gate"));
            Gate.awaitArrival();
            if (rowLocks()) {
                SessionBusyException busy = assertThrows(SessionBusyException.class, () -> node2.resume(id, 1, "b"));
                assertTrue(busy.getMessage().contains(id), busy.getMessage());
                Gate.open();
            } else {
                // one writer at a time: node2 waits for the database's lock, then finds the step taken
                Future<SessionStep<String>> second = others.submit(() -> node2.resume(id, 1, "b"));
                Gate.open();
                java.util.concurrent.ExecutionException conflict = assertThrows(
                        java.util.concurrent.ExecutionException.class, second::get);
                assertTrue(conflict.getCause() instanceof SessionConflictException, String.valueOf(conflict.getCause()));
            }
            assertEquals(2, held.get().version());
        } finally {
            Gate.open();
            others.shutdown();
        }
        assertEquals(List.of("1:a", "2:gate"), ledger(id));
    }

    @Test
    void aStartUnderAnIdThatIsStartingOrExistsRunsNothing() throws Exception {
        Sessions node2 = builder().build();
        Gate.reset();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<SessionStep<String>> first = other.submit(() -> sessions.start("order-7", new Ledger(3), "gate"));
            Gate.awaitArrival();
            assertThrows(SessionBusyException.class, () -> sessions.start("order-7", new Ledger(3), "twin"));
            if (rowLocks()) {
                assertThrows(SessionBusyException.class, () -> node2.start("order-7", new Ledger(3), "twin"));
            }
            Gate.open();
            assertEquals(1, first.get().version());
        } finally {
            Gate.open();
            other.shutdown();
        }
        SessionConflictException exists = assertThrows(SessionConflictException.class,
                () -> node2.start("order-7", new Ledger(3), "again"));
        assertEquals(1, exists.currentVersion());
        assertEquals("after step 1", exists.lastOutput());
        assertEquals(List.of("1:gate"), ledger("order-7"));
    }

    // ---------------------------------------------------------------- listing and removing

    @Test
    void sessionsAreListedOldestFirstAndRemoved() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(sessions.start(new Ledger(3), "s" + i).id());
        }
        assertEquals(ids.stream().sorted().toList(), sessions.list().stream().map(SessionInfo::id).sorted().toList());
        assertTrue(sessions.remove(ids.get(1)));
        assertFalse(sessions.remove(ids.get(1)));
        assertEquals(2, sessions.list().size());
        assertThrows(SessionNotFoundException.class, () -> sessions.resume(ids.get(1), "x"));
        List<Sessions.BuildSummary> builds = sessions.builds();
        assertEquals(1, builds.size());
        assertEquals(2, builds.get(0).sessions());
        assertNull(builds.get(0).refusal(), "this node wrote them, so it accepts them");
    }

    @Test
    void aStepCannotCommitItsOwnTransaction() {
        SessionStep<String> step = sessions.start(new Ledger(5), "a");
        assertThrows(IllegalStateException.class, StepContext::current, "no step runs on the test's thread");
        SessionFailedException failed = assertThrows(SessionFailedException.class,
                () -> sessions.resume(step.id(), "commit"));
        assertTrue(failed.getMessage().contains("a step cannot commit its transaction"), failed.getMessage());
        assertEquals(List.of("1:a"), ledger(step.id()), "the step's write did not commit by itself");
    }

    /** The ledger rows of session {@code id}, as "step:input", in step order. */
    // ---------------------------------------------------------------- resident sessions

    @Test
    void aResidentSessionStepsWithoutReadingItsStoredState() throws SQLException {
        Sessions resident = builder().keepResident(10).build();
        String id = resident.start(new Ledger(3), "a").id();
        overwriteState(id, new byte[] {1, 2, 3});
        assertEquals("after step 2", resident.<String, String>resume(id, "b").output());
        assertEquals("done after 3", resident.<String, String>resume(id, "c").output());
        assertEquals(List.of("1:a", "2:b", "3:c"), ledger(id));
        assertTrue(sessions.status(id).isEmpty(), "a finished session is deleted");
    }

    @Test
    void aResidentSessionThatAnotherNodeMovedOnRunsFromTheStoredStateAndItsStaleWritesRollBack() {
        Sessions resident = builder().keepResident(10).build();
        String id = resident.start(new Ledger(5), "a").id();
        assertEquals("after step 2", resident.<String, String>resume(id, "b").output());
        assertEquals("after step 3", sessions.<String, String>resume(id, "c").output());
        SessionStep<String> step = resident.resume(id, "d");
        assertEquals("after step 4", step.output());
        assertEquals(4, step.version());
        assertEquals(List.of("1:a", "2:b", "3:c", "4:d"), ledger(id), "the step run from the stale coroutine left no row");
        assertEquals("done after 5", resident.<String, String>resume(id, "e").output());
        assertEquals(List.of("1:a", "2:b", "3:c", "4:d", "5:e"), ledger(id));
    }

    @Test
    void aResidentSessionResumedOnAnotherThreadIsReadFromTheStore() throws Exception {
        Sessions resident = builder().keepResident(10).build();
        String id = resident.start(new Ledger(3), "a").id();
        byte[] state = storedState(id);
        overwriteState(id, new byte[] {1, 2, 3});
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<Throwable> refused = other.submit(() -> {
                try {
                    resident.resume(id, "b");
                    return null;
                } catch (SessionRefusedException e) {
                    return e;
                }
            });
            assertNotNull(refused.get(), "another thread resumed the resident coroutine instead of the stored state");
            overwriteState(id, state);
            assertEquals("after step 2", other.submit(() -> resident.<String, String>resume(id, "b").output()).get());
        } finally {
            other.shutdown();
        }
        assertEquals(List.of("1:a", "2:b"), ledger(id));
        assertEquals(2, sessions.status(id).orElseThrow().version());
    }

    @Test
    void theLeastRecentlySteppedSessionLeavesMemoryFirst() throws SQLException {
        Sessions resident = builder().keepResident(1).build();
        String first = resident.start(new Ledger(3), "a").id();
        String second = resident.start(new Ledger(3), "a").id();
        overwriteState(first, new byte[] {1, 2, 3});
        overwriteState(second, new byte[] {1, 2, 3});
        assertEquals("after step 2", resident.<String, String>resume(second, "b").output());
        assertThrows(SessionRefusedException.class, () -> resident.resume(first, "b"));
        assertEquals(1, sessions.status(first).orElseThrow().version(), "a refused session is left as it was");
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> builder().keepResident(-1));
        assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
    }

    /**
     * A sealed session held resident, whose row is changed in the store column by column: the
     * resident step's commit does not find the row it stored, so the step is rolled back and read
     * from the store, which refuses it as a stored step does, and leaves it byte for byte.
     */
    @Test
    void aResidentStepRefusesARowWhoseSealedColumnsChangedAndLeavesItAsItWas() throws SQLException {
        Sessions resident = builder().sealWith(key(1)).keepResident(100).build();
        String other = resident.start(new Questionnaire(), null).id();
        resident.resume(other, "Bob");
        Map<String, Object> others = storedRow(other);
        for (String column : SEALED_COLUMNS) {
            String id = resident.start(new Questionnaire(), null).id();
            resident.resume(id, 1, "Ada");
            Map<String, Object> original = storedRow(id);
            setColumn(id, column, sealedColumnEdit(column, original, others));
            Map<String, Object> changed = storedRow(id);
            SessionRefusedException refused = assertThrows(SessionRefusedException.class,
                    () -> resident.resume(id, 2, "London"), column);
            assertTrue(refused.reason().startsWith("column " + column + (column.equals("seal")
                    ? " matches none of this node's 1 key(s)" : " differs from what was sealed")), refused.reason());
            assertTrue(StoredRows.same(changed, storedRow(id)), column + " left byte for byte as it was: "
                    + StoredRows.describe(storedRow(id)));
            putRow(id, original);
            assertEquals("How old are you?", resident.<String, String>resume(id, 2, "London").output(),
                    "as it was, it resumes");
        }
    }

    /** The columns a seal covers, and the seal itself last. */
    private static final List<String> SEALED_COLUMNS = List.of("status", "version", "build", "point", "point_values",
            "state", "output", "failure", "created_at", "updated_at", "seal");

    /**
     * A new value for sealed {@code column} of {@code row}, a Questionnaire's at its second
     * question: made up, or taken from {@code others}, another session's row at the same point.
     */
    private static Object sealedColumnEdit(String column, Map<String, Object> row, Map<String, Object> others) {
        return switch (column) {
            case "status" -> "FAILED";
            case "version" -> 3L;
            case "build" -> Builds.fingerprint("another build");
            case "point" -> "age";
            case "point_values", "state", "output" -> others.get(column);
            case "failure" -> "java.lang.IllegalStateException: made up";
            case "created_at" -> (Long) row.get("created_at") - 1;
            case "updated_at" -> (Long) row.get("updated_at") + 1;
            case "seal" -> sealMadeUp(row);
            default -> throw new IllegalArgumentException("no sealed column " + column);
        };
    }

    /** {@code row}'s seal with the last byte of its MAC changed. */
    private static byte[] sealMadeUp(Map<String, Object> row) {
        byte[] seal = ((byte[]) row.get("seal")).clone();
        seal[seal.length - 1] ^= 1;
        return seal;
    }

    /**
     * With a key, a resident step still reads nothing of its row: a row whose manifest column (not
     * sealed, and not the build's) a stored step would refuse is stepped from memory, whether the
     * step's UPDATE goes with its COMMIT (a body that writes nothing) or before it.
     */
    @Test
    void aSealedResidentSessionStepsWithoutReadingItsStoredRow() throws SQLException {
        Sessions resident = builder().sealWith(key(1)).keepResident(10).build();
        Sessions stored = builder().sealWith(key(1)).build();
        for (AsymRunnable<String, String> body : List.<AsymRunnable<String, String>>of(new Ledger(3),
                new dev.weft.sessions.flows.Turnstile())) {
            String id = resident.<String, String>start(body, "a").id();
            setColumn(id, "manifest", "not the manifest of its build");
            assertTrue(stored.refusal(id).isPresent(), "a stored step refuses it");
            assertEquals(body instanceof Ledger ? "after step 2" : "2:b", resident.<String, String>resume(id, 1, "b")
                    .output());
            assertEquals(2, resident.status(id).orElseThrow().version());
        }
    }

    /** A sealed resident session that finishes deletes its row only as it stored it. */
    @Test
    void aResidentStepThatFinishesLeavesAChangedSealedRowAsItWas() throws SQLException {
        Sessions resident = builder().sealWith(key(1)).keepResident(10).build();
        String id = resident.start(new Ledger(2), "a").id();
        setColumn(id, "output", StateCodec.value("made up"));
        Map<String, Object> changed = storedRow(id);
        SessionRefusedException refused = assertThrows(SessionRefusedException.class, () -> resident.resume(id, "b"));
        assertTrue(refused.reason().startsWith("column output differs from what was sealed"), refused.reason());
        assertTrue(StoredRows.same(changed, storedRow(id)), "left as it was: " + StoredRows.describe(storedRow(id)));
        assertEquals(List.of("1:a"), ledger(id), "the resident step's own write rolled back");
    }

    // ---------------------------------------------------------------- the row a step writes

    @Test
    void aStepSuspendedInOtherMethodsStoresTheirBuildAndOneInTheSameMethodsKeepsIt() throws SQLException {
        assertBuildFollowsTheFrames(sessions);
    }

    @Test
    void aResidentStepSuspendedInOtherMethodsStoresTheirBuildAndOneInTheSameMethodsKeepsIt() throws SQLException {
        assertBuildFollowsTheFrames(Sessions.builder(store).keepResident(10).build());
    }

    /**
     * Questionnaire's first two questions suspend in run and ask, the third (asked again until
     * it is a number) in run, number and ask: the stored build changes once, with its manifest.
     */
    private void assertBuildFollowsTheFrames(Sessions stepping) throws SQLException {
        String id = stepping.start(new Questionnaire(), null).id();
        String[] askingName = storedBuild(id);
        stepping.resume(id, "Ann");
        assertArrayEquals(askingName, storedBuild(id), "the same methods suspended: the same build");
        stepping.resume(id, "Oslo");
        String[] askingAge = storedBuild(id);
        assertFalse(askingName[1].contains("\tnumber("), askingName[1]);
        assertTrue(askingAge[1].contains("\tnumber("), askingAge[1]);
        assertEquals(Builds.fingerprint(askingAge[1]), askingAge[0], "the build is the new manifest's fingerprint");
        assertEquals(askingAge[0], sessions.status(id).orElseThrow().build());
        assertEquals("How old are you? (a number, please)", stepping.<String, String>resume(id, "old").output());
        assertArrayEquals(askingAge, storedBuild(id));
        assertEquals("Ann from Oslo, 30", sessions.<String, String>resume(id, "30").output(),
                "another node accepts the stored build");
    }

    @Test
    void aFailedStepKeepsTheBuildOfTheFramesItStartedFromEvenFromAResidentStep() throws SQLException {
        Sessions resident = Sessions.builder(store).keepResident(10).build();
        String id = resident.start(new Ledger(5), "a").id();
        String[] before = storedBuild(id);
        assertNotNull(before[0]);
        assertThrows(SessionFailedException.class, () -> resident.resume(id, "boom"));
        assertArrayEquals(before, storedBuild(id), "the failed session keeps its frames, for a retry");
        assertEquals(SessionStatus.FAILED, sessions.status(id).orElseThrow().status());
        assertEquals(before[0], sessions.status(id).orElseThrow().build());
    }

    @Test
    void aBuildsManifestIsStoredOnceBesideTheSessionsThatNameIt() throws SQLException {
        String first = sessions.start(new Questionnaire(), null).id();
        String second = Sessions.builder(store).build().start(new Questionnaire(), null).id();
        String build = storedBuild(first)[0];
        assertEquals(build, storedBuild(second)[0]);
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT build, manifest FROM weft_builds")) {
            assertTrue(rows.next());
            assertEquals(build, rows.getString(1));
            assertEquals(build, Builds.fingerprint(rows.getString(2)));
            assertFalse(rows.next(), "one row per build");
        }
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM weft_sessions WHERE manifest IS NULL")) {
            assertTrue(rows.next());
            assertEquals(2, rows.getInt(1), "a session's row holds its build's fingerprint only");
        }
    }

    @Test
    void aRowHoldingItsOwnManifestAsBeforeTheBuildsTableIsReadAsItIsAndMovesToItOnANewBuild() throws SQLException {
        String id = sessions.start(new Questionnaire(), null).id();
        String[] askingName = storedBuild(id);
        try (Connection connection = connect(); PreparedStatement inline = connection.prepareStatement(
                "UPDATE weft_sessions SET manifest = ? WHERE id = ?"); Statement statement = connection.createStatement()) {
            inline.setString(1, askingName[1]);
            inline.setString(2, id);
            assertEquals(1, inline.executeUpdate());
            assertEquals(1, statement.executeUpdate("DELETE FROM weft_builds"));
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }
        Sessions node = Sessions.builder(store).build();
        assertTrue(node.refusal(id).isEmpty(), "the manifest in the row is read");
        assertEquals(List.of(new Sessions.BuildSummary(askingName[0], 1, null)), node.builds());
        assertEquals("Where do you live, Ann?", node.<String, String>resume(id, "Ann").output());
        assertArrayEquals(askingName, storedBuild(id), "the same build: the row keeps its manifest");
        assertEquals("How old are you?", node.<String, String>resume(id, "Oslo").output());
        String[] askingAge = storedBuild(id);
        assertEquals(Builds.fingerprint(askingAge[1]), askingAge[0]);
        try (Connection connection = connect(); PreparedStatement read = connection.prepareStatement(
                "SELECT s.manifest, b.manifest FROM weft_sessions s JOIN weft_builds b ON b.build = s.build"
                        + " WHERE s.id = ?")) {
            read.setString(1, id);
            try (ResultSet row = read.executeQuery()) {
                assertTrue(row.next(), "the new build is in weft_builds");
                assertNull(row.getString(1), "and no longer in the row");
                assertEquals(askingAge[1], row.getString(2));
            }
        }
        assertEquals("Ann from Oslo, 30", sessions.<String, String>resume(id, "30").output());
    }

    /** The build and manifest of session {@code id}, wherever the store keeps the manifest. */
    String[] storedBuild(String id) throws SQLException {
        try (Connection connection = connect(); PreparedStatement read = connection.prepareStatement(
                "SELECT s.build, COALESCE(s.manifest, b.manifest) FROM weft_sessions s"
                        + " LEFT JOIN weft_builds b ON b.build = s.build WHERE s.id = ?")) {
            read.setString(1, id);
            try (ResultSet row = read.executeQuery()) {
                assertTrue(row.next(), "session " + id + " is stored");
                return new String[] {row.getString(1), row.getString(2)};
            }
        }
    }

    /** The stored state of session {@code id}, as its row holds it. */
    byte[] storedState(String id) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement read = connection.prepareStatement("SELECT state FROM weft_sessions WHERE id = ?")) {
            read.setString(1, id);
            try (ResultSet row = read.executeQuery()) {
                assertTrue(row.next());
                return row.getBytes(1);
            }
        }
    }

    /** Replaces the stored state of session {@code id} behind the sessions' back. */
    void overwriteState(String id, byte[] state) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement write = connection.prepareStatement("UPDATE weft_sessions SET state = ? WHERE id = ?")) {
            write.setBytes(1, state);
            write.setString(2, id);
            assertEquals(1, write.executeUpdate());
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }
    }

    List<String> ledger(String id) {
        try (Connection connection = connect()) {
            return StoredRows.ledger(connection, id);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
