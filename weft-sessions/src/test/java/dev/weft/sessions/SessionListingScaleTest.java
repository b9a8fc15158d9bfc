package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.SessionInfo.WaitKind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store of 100,000 sessions, inserted in SQL in one transaction, paged through: every session
 * once, in order; and each page's statement read by an index in listing order, so that a page
 * costs what the first one does (SQLite's {@code EXPLAIN QUERY PLAN}: a search of an index from
 * the page's position, no sort of the rows that pass). No timings.
 */
class SessionListingScaleTest {

    private static final int SESSIONS = 100_000;
    private static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    @TempDir
    Path directory;

    @Test
    void aHundredThousandSessionsArePagedEachOnceInOrderEachPageSearchedInAnIndex() throws SQLException {
        Path file = directory.resolve("sessions.db");
        try (SessionStore store = SessionStore.sqlite(file);
                Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            insert(connection);
            Sessions sessions = Sessions.builder(store).build();
            List<String> ids = SessionListingContract.all(sessions, SessionQuery.all().limit(SessionQuery.MAX_LIMIT),
                    null);
            assertEquals(SESSIONS, ids.size());
            for (int i = 0; i < SESSIONS; i++) {
                assertEquals(id(i), ids.get(i));
            }
            List<String> failed = SessionListingContract.all(sessions, SessionQuery.all().status(SessionStatus.FAILED)
                    .limit(7), null);
            assertEquals(SESSIONS / 1000, failed.size());
            assertEquals(id(99_000), failed.get(failed.size() - 1));
            SessionPage deep = sessions.list(SessionQuery.all().waitingFor(WaitKind.SLEEP).limit(3)
                    .after(new SessionCursor(T0 + 900, id(90_000)).text()));
            assertEquals(List.of(id(90_006), id(90_013), id(90_020)), SessionListingContract.ids(deep.sessions()));
            assertEquals(new SessionInfo.Waiting(WaitKind.SLEEP, Instant.ofEpochMilli(T0 + 90_006)), deep.sessions()
                    .get(0).waiting());

            String deepCursor = new SessionCursor(T0 + 990, id(99_000)).text();
            Map<SessionQuery, String> indexes = new LinkedHashMap<>();
            indexes.put(SessionQuery.all(), "weft_sessions_created");
            indexes.put(SessionQuery.all().status(SessionStatus.FAILED), "weft_sessions_status");
            indexes.put(SessionQuery.all().build("build-1"), "weft_sessions_build_created");
            indexes.put(SessionQuery.all().point("point-3"), "weft_sessions_point");
            indexes.put(SessionQuery.all().parent("parent-1"), "weft_sessions_parent");
            indexes.put(SessionQuery.all().waitingFor(WaitKind.SLEEP), "weft_sessions_waiting");
            indexes.put(SessionQuery.all().waitingForNothing(), "weft_sessions_created");
            indexes.put(SessionQuery.all().status(SessionStatus.SUSPENDED).build("build-2").point("point-4")
                    .waitingFor(WaitKind.SLEEP), null);
            indexes.put(SessionQuery.all().status(SessionStatus.FAILED, SessionStatus.FINISHED), "weft_sessions_status");
            indexes.put(SessionQuery.all().waitingFor(WaitKind.values()), "weft_sessions_waiting");
            indexes.put(SessionQuery.all().dueBefore(Instant.ofEpochMilli(T0 + 500)), "weft_sessions_waiting");
            indexes.put(SessionQuery.all().status(SessionStatus.values()).waitingFor(WaitKind.values()), null);
            for (Map.Entry<SessionQuery, String> expected : indexes.entrySet()) {
                for (SessionQuery query : List.of(expected.getKey(), expected.getKey().after(deepCursor))) {
                    assertSearchedInOrder(plan(connection, query), query, expected.getValue());
                }
            }
        }
    }

    /**
     * Asserts that each read of {@code weft_sessions} in {@code plan} is of an index (named
     * {@code index}, if not null), from the query's position if it has one, in listing order
     * (no sort of what it reads); of a union of arms, each arm's rows, at most a page, may then
     * be sorted (SQLite merges the arms, each sorted with its builds joined).
     */
    private static void assertSearchedInOrder(List<Step> plan, SessionQuery query, String index) {
        List<Step> reads = plan.stream().filter(step -> step.detail().matches("(SCAN|SEARCH) s .*")).toList();
        boolean union = plan.stream().anyMatch(step -> step.detail().startsWith("CO-ROUTINE arm"));
        assertFalse(reads.isEmpty(), query + ": " + plan);
        for (Step read : reads) {
            assertTrue(read.detail().contains(" USING INDEX ") || read.detail().contains(" USING COVERING INDEX "),
                    query + ": " + plan);
            if (index != null) {
                assertTrue((read.detail() + " ").contains(" INDEX " + index + " "), query + ": " + plan);
            }
            if (query.position() != null) {
                assertTrue(read.detail().startsWith("SEARCH s ") && read.detail().contains("(created_at,id)>(?,?)"),
                        query + ": a search from the position, " + plan);
            }
        }
        for (Step sort : plan.stream().filter(step -> step.detail().contains("TEMP B-TREE")).toList()) {
            assertTrue(union, query + ": no sort, " + plan);
            Step parent = plan.stream().filter(step -> step.id() == sort.parent()).findFirst().orElseThrow();
            assertFalse(parent.detail().startsWith("CO-ROUTINE"), query + ": an arm read in order, " + plan);
        }
    }

    private static String id(int i) {
        return String.format("s%06d", i);
    }

    /**
     * Sessions s000000 to s099999, a hundred created each millisecond, in listing order: one in
     * a thousand failed, the others suspended at one of 10 points of one of 3 builds, one in
     * seven of those asleep until a time of its own.
     */
    private static void insert(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < "
                    + (SESSIONS - 1) + ") INSERT INTO weft_sessions (id, status, version, build, point, failure,"
                    + " created_at, updated_at, wait_kind, due_at) SELECT printf('s%06d', i),"
                    + " CASE WHEN i % 1000 = 0 THEN 'FAILED' ELSE 'SUSPENDED' END, 1,"
                    + " CASE WHEN i % 1000 = 0 THEN NULL ELSE 'build-' || (i % 3) END,"
                    + " CASE WHEN i % 1000 = 0 THEN NULL ELSE 'point-' || (i % 10) END,"
                    + " CASE WHEN i % 1000 = 0 THEN 'java.lang.IllegalStateException: boom' END,"
                    + " " + T0 + " + i / 100, " + T0 + " + i / 100,"
                    + " CASE WHEN i % 7 = 0 AND i % 1000 <> 0 THEN 'SLEEP' END,"
                    + " CASE WHEN i % 7 = 0 AND i % 1000 <> 0 THEN " + T0 + " + i END FROM n");
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    /** One step of SQLite's plan: its id, its parent's, and what it does. */
    private record Step(int id, int parent, String detail) {
    }

    /** The steps of SQLite's plan for the statement of {@code query}'s page, its parameters bound. */
    private static List<Step> plan(Connection connection, SessionQuery query) throws SQLException {
        SessionQueries.Select select = SessionQueries.page(query);
        try (PreparedStatement explain = connection.prepareStatement("EXPLAIN QUERY PLAN " + SessionStore.sql(select))) {
            int index = 1;
            for (Object parameter : select.parameters()) {
                explain.setObject(index++, parameter);
            }
            List<Step> steps = new ArrayList<>();
            try (ResultSet plan = explain.executeQuery()) {
                while (plan.next()) {
                    steps.add(new Step(plan.getInt("id"), plan.getInt("parent"), plan.getString("detail")));
                }
            }
            return steps;
        }
    }
}
