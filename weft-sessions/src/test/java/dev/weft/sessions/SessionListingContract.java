package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.SessionInfo.WaitKind;
import dev.weft.sessions.SessionInfo.Waiting;
import dev.weft.sessions.flows.Alarm;
import dev.weft.sessions.flows.Deadline;
import dev.weft.sessions.flows.Ledger;
import dev.weft.sessions.flows.Questionnaire;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Finding sessions on every store and engine: run as a nested class of {@link SessionStoreContract}
 * ({@code Listings}), on its store. The nodes share a {@link MutableClock}, so that sessions are
 * created at the times a test chooses, many at one instant. Expected orders are taken from
 * {@link Sessions#list()} (the stores order ids by their own collations), never sorted here.
 */
abstract class SessionListingContract {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    /** The listing indexes, as {@link SessionQueries#INDEXES} creates them. */
    static final List<String> INDEXES = List.of("weft_sessions_created", "weft_sessions_status",
            "weft_sessions_build_created", "weft_sessions_point", "weft_sessions_waiting");

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private final MutableClock clock = new MutableClock(T0);

    private Sessions.Builder node() {
        return suite().builder().clock(clock).keepFinished(true);
    }

    // ---------------------------------------------------------------- what a session waits for

    @Test
    void theStatusOfASessionSaysWhatItWaitsForAndUntilWhen() {
        Sessions node = node().build();
        String plain = node.start(new Questionnaire(), null).id();
        String asleep = node.start(new Alarm(), Duration.ofMinutes(5)).id();
        String awaiting = node.start(new Deadline(Duration.ofHours(1)), null).id();
        String failed = failed(node, "failed");
        assertNull(node.status(plain).orElseThrow().waiting(), "a plain input, no deadline");
        assertEquals(new Waiting(WaitKind.SLEEP, T0.plus(Duration.ofMinutes(5))), node.status(asleep).orElseThrow()
                .waiting());
        assertEquals(new Waiting(WaitKind.INPUT, T0.plus(Duration.ofHours(1))), node.status(awaiting).orElseThrow()
                .waiting());
        assertNull(node.status(failed).orElseThrow().waiting());
        assertEquals(T0, node.status(plain).orElseThrow().created(), "times are the node's clock's");
        clock.advance(Duration.ofMinutes(1));
        assertEquals("answered yes", node.<String, String>resume(awaiting, "yes").output());
        assertNull(node.status(awaiting).orElseThrow().waiting(), "finished: waits for nothing");
        assertEquals(T0.plus(Duration.ofMinutes(1)), node.status(awaiting).orElseThrow().updated());
        assertEquals(T0, node.status(awaiting).orElseThrow().created());
        SessionInfo listed = node.list().stream().filter(info -> info.id().equals(asleep)).findFirst().orElseThrow();
        assertEquals(WaitKind.SLEEP, listed.waiting().kind(), "list() says it too");
    }

    @Test
    void theApisKindsOfWaitAreTheStoredOnes() {
        assertEquals(names(SessionWait.Kind.values()), names(WaitKind.values()), "SessionInfo.WaitKind names the"
                + " kinds of SessionWait.Kind, in its order: add a new kind to both");
    }

    private static List<String> names(Enum<?>[] values) {
        return java.util.Arrays.stream(values).map(Enum::name).toList();
    }

    // ---------------------------------------------------------------- filters

    /** Ids of sessions in the fixture, which {@link #fixture} starts a second apart. */
    private static final String NAME = "at-name";
    private static final String CITY = "at-city";
    private static final String ASLEEP = "asleep";
    private static final String AWAITING = "awaiting";
    private static final String LATE = "asleep-long";
    private static final String FAILED = "failed";
    private static final String FINISHED = "finished";

    /** One session of each kind, each a second after the one before. */
    private Sessions fixture() {
        Sessions node = node().build();
        node.start(NAME, new Questionnaire(), null);
        clock.advance(Duration.ofSeconds(1));
        node.start(CITY, new Questionnaire(), null);
        node.resume(CITY, "Ada");
        clock.advance(Duration.ofSeconds(1));
        node.start(ASLEEP, new Alarm(), Duration.ofMinutes(5));
        clock.advance(Duration.ofSeconds(1));
        node.start(AWAITING, new Deadline(Duration.ofHours(1)), null);
        clock.advance(Duration.ofSeconds(1));
        node.start(LATE, new Alarm(), Duration.ofHours(2));
        clock.advance(Duration.ofSeconds(1));
        failed(node, FAILED);
        clock.advance(Duration.ofSeconds(1));
        node.start(FINISHED, new Ledger(1), "only");
        return node;
    }

    private static String failed(Sessions node, String id) {
        assertThrows(SessionFailedException.class, () -> node.start(id, new Ledger(3), "boom"));
        return id;
    }

    @Test
    void eachFilterAloneFindsTheSessionsItNames() {
        Sessions node = fixture();
        assertEquals(List.of(NAME, CITY, ASLEEP, AWAITING, LATE, FAILED, FINISHED), ids(node.list()),
                "created a second apart: oldest first");
        assertFound(node, SessionQuery.all(), NAME, CITY, ASLEEP, AWAITING, LATE, FAILED, FINISHED);
        assertFound(node, SessionQuery.all().status(SessionStatus.SUSPENDED), NAME, CITY, ASLEEP, AWAITING, LATE);
        assertFound(node, SessionQuery.all().status(SessionStatus.FAILED), FAILED);
        assertFound(node, SessionQuery.all().status(SessionStatus.FINISHED, SessionStatus.FAILED), FAILED, FINISHED);
        assertFound(node, SessionQuery.all().status(), NAME, CITY, ASLEEP, AWAITING, LATE, FAILED, FINISHED);
        String questionnaire = node.status(NAME).orElseThrow().build();
        assertEquals(questionnaire, node.status(CITY).orElseThrow().build(), "the same frames' methods");
        assertFound(node, SessionQuery.all().build(questionnaire), NAME, CITY);
        assertFound(node, SessionQuery.all().build(node.status(ASLEEP).orElseThrow().build()), ASLEEP, LATE);
        assertFound(node, SessionQuery.all().build("no-such-build"));
        assertFound(node, SessionQuery.all().point("name"), NAME);
        assertFound(node, SessionQuery.all().point("city"), CITY);
        assertFound(node, SessionQuery.all().waitingFor(WaitKind.SLEEP), ASLEEP, LATE);
        assertFound(node, SessionQuery.all().waitingFor(WaitKind.INPUT), AWAITING);
        assertFound(node, SessionQuery.all().waitingFor(WaitKind.values()), ASLEEP, AWAITING, LATE);
        assertFound(node, SessionQuery.all().waitingForNothing(), NAME, CITY, FAILED, FINISHED);
        assertFound(node, SessionQuery.all().waitingForNothing().waitingFor(), NAME, CITY, ASLEEP, AWAITING, LATE,
                FAILED, FINISHED);
        Instant asleepUntil = node.status(ASLEEP).orElseThrow().waiting().until();
        assertFound(node, SessionQuery.all().dueBefore(asleepUntil));
        assertFound(node, SessionQuery.all().dueBefore(asleepUntil.plusMillis(1)), ASLEEP);
        assertFound(node, SessionQuery.all().dueBefore(T0.plus(Duration.ofHours(2))), ASLEEP, AWAITING);
        assertFound(node, SessionQuery.all().dueBefore(Instant.MAX), ASLEEP, AWAITING, LATE);
        assertFound(node, SessionQuery.all().dueBefore(Instant.MIN));
    }

    @Test
    void filtersCombinedFindTheSessionsThatPassEach() {
        Sessions node = fixture();
        String questionnaire = node.status(NAME).orElseThrow().build();
        assertFound(node, SessionQuery.all().status(SessionStatus.SUSPENDED).waitingForNothing(), NAME, CITY);
        assertFound(node, SessionQuery.all().build(questionnaire).point("city"), CITY);
        assertFound(node, SessionQuery.all().build(questionnaire).point("age"));
        assertFound(node, SessionQuery.all().waitingFor(WaitKind.SLEEP).dueBefore(T0.plus(Duration.ofHours(1))),
                ASLEEP);
        assertFound(node, SessionQuery.all().waitingFor(WaitKind.INPUT).dueBefore(T0.plus(Duration.ofMinutes(10))));
        assertFound(node, SessionQuery.all().status(SessionStatus.SUSPENDED, SessionStatus.FAILED)
                .waitingForNothing(), NAME, CITY, FAILED);
        assertFound(node, SessionQuery.all().status(SessionStatus.FAILED).point("name"));
        assertFound(node, SessionQuery.all().waitingForNothing().dueBefore(Instant.MAX));
        assertFound(node, SessionQuery.all().status(SessionStatus.SUSPENDED).build(node.status(ASLEEP).orElseThrow()
                .build()).waitingFor(WaitKind.SLEEP, WaitKind.INPUT).dueBefore(Instant.MAX), ASLEEP, LATE);
    }

    /** Asserts that {@code query} finds {@code expected}, in that order, on one page and on pages of one and two. */
    private static void assertFound(Sessions node, SessionQuery query, String... expected) {
        List<String> wanted = List.of(expected);
        SessionPage page = node.list(query);
        assertEquals(wanted, ids(page.sessions()), query.toString());
        assertNull(page.next(), query + ": one page holds them all");
        assertFalse(page.hasNext());
        for (int limit : new int[] {1, 2}) {
            assertEquals(wanted, all(node, query.limit(limit), null), query + " a page of " + limit);
        }
    }

    // ---------------------------------------------------------------- paging

    @Test
    void pagesOfOneTwoAndSevenListEverySessionExactlyOnceInOrderThoughCreatedAtOneInstant() {
        Sessions node = node().build();
        for (int i = 0; i < 20; i++) {
            if (i % 4 == 3) {
                failed(node, "failed-" + i);
            } else {
                node.start(new Questionnaire(), null);
            }
        }
        List<SessionInfo> listed = node.list();
        assertEquals(Set.of(T0), new HashSet<>(listed.stream().map(SessionInfo::created).toList()));
        List<String> everything = ids(listed);
        List<String> suspended = ids(listed.stream().filter(s -> s.status() == SessionStatus.SUSPENDED).toList());
        assertEquals(15, suspended.size());
        for (int limit : new int[] {1, 2, 7, 20, 21, SessionQuery.MAX_LIMIT}) {
            List<Integer> sizes = new ArrayList<>();
            assertEquals(everything, all(node, SessionQuery.all().limit(limit), sizes), "pages of " + limit);
            assertEquals((20 + limit - 1) / limit, sizes.size(), "pages of " + limit + ": " + sizes);
            assertTrue(sizes.stream().allMatch(size -> size >= 1 && size <= limit), sizes.toString());
            assertEquals(suspended, all(node, SessionQuery.all().status(SessionStatus.SUSPENDED).limit(limit), null),
                    "suspended, pages of " + limit);
        }
    }

    @Test
    void sessionsThatChangeBetweenPagesAreListedOnceIfTheyPassTheFiltersWhenTheirPageIsRead() {
        Sessions node = node().build();
        for (int i = 0; i < 6; i++) {
            node.start(new Ledger(5), "s" + i);
        }
        List<String> ids = ids(node.list());
        SessionQuery suspended = SessionQuery.all().status(SessionStatus.SUSPENDED).limit(2);
        SessionPage first = node.list(suspended);
        assertEquals(ids.subList(0, 2), ids(first.sessions()));
        failed(node, ids.get(0), "boom");                       // listed already: not again
        failed(node, ids.get(3), "boom");                       // ahead: no longer passes the filter
        assertEquals("after step 2", node.<String, String>resume(ids.get(2), "x").output()); // ahead, stepped
        assertTrue(node.remove(ids.get(1)), "the cursor's own session, gone: its position stays");
        clock.advance(Duration.ofSeconds(1));
        String later = node.start(new Ledger(5), "late").id();   // after every position so far
        SessionPage second = node.list(suspended.after(first.next()));
        assertEquals(List.of(ids.get(2), ids.get(4)), ids(second.sessions()));
        SessionPage third = node.list(suspended.after(second.next()));
        assertEquals(List.of(ids.get(5), later), ids(third.sessions()));
        assertNull(third.next(), "nothing follows");
        SessionPage failures = node.list(SessionQuery.all().status(SessionStatus.FAILED).after(first.next()));
        assertEquals(List.of(ids.get(3)), ids(failures.sessions()), "a cursor is a position, for any filters");
    }

    private static void failed(Sessions node, String id, String input) {
        assertThrows(SessionFailedException.class, () -> node.resume(id, input));
    }

    @Test
    void anEmptyStoreOrAFilterThatPassesNothingIsAnEmptyLastPage() {
        Sessions node = node().build();
        SessionPage empty = node.list(SessionQuery.all());
        assertEquals(List.of(), empty.sessions());
        assertNull(empty.next());
        node.start(new Questionnaire(), null);
        SessionPage none = node.list(SessionQuery.all().status(SessionStatus.FAILED).limit(1));
        assertEquals(List.of(), none.sessions());
        assertNull(none.next());
        SessionPage one = node.list(SessionQuery.all().limit(1));
        assertEquals(1, one.sessions().size());
        assertNull(one.next(), "a page that holds the last session says no next page");
    }

    @Test
    void aCursorNamesOnlyAPositionAndAHostileOneIsBoundAsAValue() throws SQLException {
        Sessions node = node().build();
        for (int i = 0; i < 3; i++) {
            node.start(new Questionnaire(), null);
            clock.advance(Duration.ofMillis(1));
        }
        List<String> ids = ids(node.list());
        String sqlish = "' OR 1=1; DROP TABLE weft_sessions; --";
        long t0 = T0.toEpochMilli();
        assertEquals(List.of(), ids(page(node, new SessionCursor(Long.MAX_VALUE, sqlish))));
        assertEquals(List.of(), ids(page(node, new SessionCursor(t0 + 3, sqlish))));
        assertEquals(ids, ids(page(node, new SessionCursor(Long.MIN_VALUE, sqlish))));
        assertEquals(ids, ids(page(node, new SessionCursor(t0 - 1, "\u00e9\ud83d\ude00".repeat(21)))));
        assertEquals(ids, ids(page(node, new SessionCursor(t0 - 1, "\u0001\n\t'\"\\%_*".repeat(6)))));
        assertEquals(ids.subList(1, 3), ids(page(node, new SessionCursor(t0, ids.get(0)))));
        assertEquals(ids, ids(page(node, new SessionCursor(t0, ""))));
        try (Connection connection = suite().connect(); Statement statement = connection.createStatement();
                ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM weft_sessions")) {
            assertTrue(count.next());
            assertEquals(3, count.getInt(1), "the table is as it was");
        }
        String nul = new SessionCursor(t0, ids.get(0) + "\0").text();
        if (suite().commandStore().get(0).equals("--postgres")) {
            assertEquals("cannot list sessions by a text with a NUL character (in a filter, or the id of a cursor):"
                    + " PostgreSQL's text holds none, so no session of " + suite().store + " has one", assertThrows(
                    IllegalArgumentException.class, () -> node.list(SessionQuery.all().after(nul))).getMessage());
            assertThrows(IllegalArgumentException.class, () -> node.list(SessionQuery.all().point("\0")));
        } else {
            assertEquals(ids.subList(1, 3), ids(node.list(SessionQuery.all().after(nul)).sessions()),
                    "SQLite's text may hold NUL: a position like any other");
        }
        String next = node.list(SessionQuery.all().limit(1)).next();
        for (String tampered : List.of(next.substring(1), next + "A", next.replace(next.charAt(3),
                next.charAt(3) == 'A' ? 'B' : 'A'), sqlish, "", "null", next.toUpperCase(), " " + next)) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> SessionQuery.all().after(tampered), tampered);
            assertTrue(refused.getMessage().startsWith("not a cursor of a page of sessions, '"), refused.getMessage());
        }
    }

    private static List<SessionInfo> page(Sessions node, SessionCursor position) {
        return node.list(SessionQuery.all().after(position.text())).sessions();
    }

    // ---------------------------------------------------------------- sealed rows

    @Test
    void withAKeyEveryRowOfAPageIsCheckedAndOneChangedInTheStoreIsRefusedNamingIt() throws SQLException {
        Sessions sealing = node().sealWith(new SecretKeySpec(new byte[32], "HmacSHA256")).build();
        for (int i = 0; i < 4; i++) {
            sealing.start(new Questionnaire(), null);
        }
        List<String> ids = ids(sealing.list());
        setColumn(ids.get(2), "point", "city");
        assertEquals(ids.subList(0, 2), ids(sealing.list(SessionQuery.all().limit(2)).sessions()),
                "a page without it");
        SessionRefusedException refused = assertThrows(SessionRefusedException.class,
                () -> sealing.list(SessionQuery.all()));
        assertEquals(ids.get(2), refused.sessionId());
        assertTrue(refused.reason().startsWith("column point differs from what was sealed"), refused.reason());
        assertEquals(ids.get(2), assertThrows(SessionRefusedException.class, () -> sealing.list(SessionQuery.all()
                .point("city"))).sessionId(), "the filter found it by the changed column, and the check refused it");
        assertEquals(List.of(ids.get(0), ids.get(1), ids.get(3)), ids(sealing.list(SessionQuery.all().point("name"))
                .sessions()), "the filters, applied by the store, pass over it");
        setColumn(ids.get(3), "status", "FAILED");
        assertEquals(ids.get(3), assertThrows(SessionRefusedException.class, () -> sealing.list(SessionQuery.all()
                .status(SessionStatus.FAILED))).sessionId());
    }

    /** SQLite holds an id of any length: a row whose id no session has is refused, and a listing with verdicts pages past it. */
    @Test
    void aRowWhoseIdIsLongerThanASessionsIsRefusedAndPagedPast() throws SQLException {
        if (suite().commandStore().get(0).equals("--postgres")) {
            return; // its id column holds at most 64 characters
        }
        Sessions node = node().build();
        for (int i = 0; i < 3; i++) {
            node.start("s" + i, new Questionnaire(), null);
            clock.advance(Duration.ofMillis(1));
        }
        String longId = "s1" + "x".repeat(100);
        setColumn("s1", "id", longId);
        assertEquals("column id holds 102 characters, more than a session's 64", assertThrows(
                SessionRefusedException.class, () -> node.list(SessionQuery.all())).reason());
        List<String> listed = new ArrayList<>();
        SessionQuery query = SessionQuery.all().limit(2);
        SessionListing.Page<SessionListing.Listing> page;
        do {
            page = node.listing().listing(query);
            page.items().forEach(listing -> listed.add(listing.id()));
            query = query.after(page.next());
        } while (page.next() != null);
        assertEquals(List.of("s0", longId, "s2"), listed, "the page that ended with it ended before it");
        assertEquals(longId, assertThrows(SessionRefusedException.class, () -> node.listing().listing(SessionQuery
                .all().limit(1).after(new SessionCursor(T0.toEpochMilli(), "s0").text()))).sessionId(),
                "a page of it alone cannot name the position after it");
    }

    private void setColumn(String id, String column, Object value) throws SQLException {
        try (Connection connection = suite().connect()) {
            assertEquals(1, StoredRows.set(connection, id, column, value));
        }
    }

    // ---------------------------------------------------------------- the command

    @Test
    void theCommandListsWhatEachSessionWaitsForAndFiltersAndPages() {
        fixture();
        String asleep = command(0, "list", "--status", "suspended", "--waiting", "SLEEP");
        assertEquals(List.of(ASLEEP, LATE), asleep.lines().skip(1).map(line -> line.split("\t")[0]).toList(), asleep);
        assertTrue(asleep.contains("\tSLEEP until 2026-01-01T00:05:02Z\taccepted\n"), asleep);
        assertTrue(asleep.startsWith("ID\tSTATUS\tVERSION\tBUILD\tPOINT\tWAITING\tTHIS NODE\n"), asleep);
        String plain = command(0, "list", "--waiting", "none", "--point", "name");
        assertTrue(plain.contains("\n" + NAME + "\tSUSPENDED\t1\t") && plain.contains("\tname\t-\taccepted\n"), plain);
        assertEquals(2, plain.lines().count(), plain);
        List<String> paged = new ArrayList<>();
        String after = null;
        do {
            List<String> args = new ArrayList<>(List.of("list", "--limit", "3"));
            if (after != null) {
                args.addAll(List.of("--after", after));
            }
            String[] outAndErr = run(0, args.toArray(String[]::new));
            outAndErr[0].lines().skip(1).forEach(line -> paged.add(line.split("\t")[0]));
            after = outAndErr[1].isEmpty() ? null : outAndErr[1].strip().replaceFirst("^more: --after ", "");
        } while (after != null);
        assertEquals(List.of(NAME, CITY, ASLEEP, AWAITING, LATE, FAILED, FINISHED), paged);
        assertEquals(4, command(0, "list", "--due-before", "9999-01-01T00:00:00Z", "--status", "SUSPENDED,FAILED")
                .lines().count(), "the header, and the 3 that wait");
        for (String[] wrong : List.of(new String[] {"list", "--limit", "0"}, new String[] {"list", "--waiting", "NAP"},
                new String[] {"list", "--status", "ASLEEP"}, new String[] {"list", "--after", "not-a-cursor"},
                new String[] {"list", "--due-before", "tomorrow"}, new String[] {"builds", "--status", "FAILED"},
                new String[] {"list", "--limit"})) {
            String err = run(2, wrong)[1];
            assertTrue(err.contains("usage: SessionsCommand"), String.join(" ", wrong) + ": " + err);
        }
    }

    private String command(int status, String... args) {
        return run(status, args)[0];
    }

    /** The command's standard output and error, having asserted its exit status. */
    private String[] run(int status, String... args) {
        List<String> all = new ArrayList<>(suite().commandStore());
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = SessionsCommand.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), getClass().getClassLoader());
        assertEquals(status, exit, () -> String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    // ---------------------------------------------------------------- the indexes

    @Test
    void aDatabaseFromBeforeListingsGetsTheirIndexesWhenOpened() throws SQLException {
        assertTrue(indexes().containsAll(INDEXES), indexes().toString());
        try (Connection connection = suite().connect(); Statement statement = connection.createStatement()) {
            for (String index : INDEXES) {
                statement.execute("DROP INDEX " + index);
            }
        }
        assertFalse(indexes().stream().anyMatch(INDEXES::contains), indexes().toString());
        suite().store.close();
        suite().store = suite().reopen();
        assertTrue(indexes().containsAll(INDEXES), indexes().toString());
    }

    /** The names of the indexes of {@code weft_sessions}, lower case. */
    private Set<String> indexes() throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection connection = suite().connect();
                ResultSet indexes = connection.getMetaData().getIndexInfo(null, null, "weft_sessions", false, false)) {
            while (indexes.next()) {
                String name = indexes.getString("INDEX_NAME");
                if (name != null) {
                    names.add(name.toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return names;
    }

    // ---------------------------------------------------------------- helpers

    /** Every page of {@code query} from its position on, their sessions' ids in order; each page's size into {@code sizes}. */
    static List<String> all(Sessions node, SessionQuery query, List<Integer> sizes) {
        List<String> ids = new ArrayList<>();
        SessionQuery next = query;
        for (int pages = 0;; pages++) {
            assertTrue(pages < 10_000, "a listing that does not end");
            SessionPage page = node.list(next);
            if (sizes != null) {
                sizes.add(page.sessions().size());
            }
            ids.addAll(ids(page.sessions()));
            if (page.next() == null) {
                return ids;
            }
            next = next.after(page.next());
        }
    }

    static List<String> ids(List<SessionInfo> sessions) {
        return sessions.stream().map(SessionInfo::id).toList();
    }
}
