package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.SessionInfo.WaitKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Queries and cursors without a store: their bounds, their SQL, and hostile cursors. */
class SessionQueryTest {

    @Test
    void aPageHoldsOneToAThousandSessionsAndOtherLimitsAreRefusedSayingSo() {
        assertEquals(SessionQuery.DEFAULT_LIMIT, SessionQuery.all().limit());
        assertEquals(1, SessionQuery.all().limit(1).limit());
        assertEquals(SessionQuery.MAX_LIMIT, SessionQuery.all().limit(SessionQuery.MAX_LIMIT).limit());
        for (int wrong : new int[] {0, -1, Integer.MIN_VALUE, SessionQuery.MAX_LIMIT + 1, Integer.MAX_VALUE}) {
            assertEquals("a page holds 1 to 1000 sessions, not " + wrong + "; page through more with the next() of"
                    + " each page", assertThrows(IllegalArgumentException.class, () -> SessionQuery.all().limit(wrong))
                    .getMessage());
        }
    }

    @Test
    void aQueryIsAValueAndEachMethodReturnsANewOne() {
        SessionQuery all = SessionQuery.all();
        SessionQuery failed = all.status(SessionStatus.FAILED);
        assertNotEquals(all, failed);
        assertEquals(SessionQuery.all(), all, "all() is unchanged");
        assertEquals(failed, SessionQuery.all().status(SessionStatus.FAILED));
        assertEquals(failed.hashCode(), SessionQuery.all().status(SessionStatus.FAILED).hashCode());
        assertEquals(all, failed.status(), "no statuses: any");
        assertEquals(all, all.build("b").build(null).point("p").point(null).dueBefore(Instant.EPOCH).dueBefore(null)
                .waitingForNothing().waitingFor());
        assertEquals("SessionQuery[status [SUSPENDED, FAILED], build b, point p, waiting for [SLEEP], due before"
                + " 1970-01-01T00:00:00Z, limit 5]", all.status(SessionStatus.FAILED, SessionStatus.SUSPENDED).build("b")
                .point("p").waitingFor(WaitKind.SLEEP).dueBefore(Instant.EPOCH).limit(5).toString());
        assertEquals("SessionQuery[waiting for nothing, limit 100]", all.waitingForNothing().toString());
        assertThrows(NullPointerException.class, () -> all.status(SessionStatus.FAILED, null));
        assertThrows(NullPointerException.class, () -> all.waitingFor((WaitKind) null));
    }

    @Test
    void everyValueOfAQueryIsAParameterNeverSql() {
        String hostile = "x' OR '1'='1";
        SessionQuery query = SessionQuery.all().status(SessionStatus.SUSPENDED, SessionStatus.FAILED).build(hostile)
                .point(hostile).waitingFor(WaitKind.values()).dueBefore(Instant.MAX).limit(7)
                .after(new SessionCursor(42, hostile).text());
        SessionQueries.Select select = SessionQueries.page(query);
        assertFalse((select.source() + select.sql()).contains("'"), select.toString());
        String arm = " WHERE s.status = ? AND s.build = ? AND s.point = ? AND s.wait_kind = ? AND s.due_at < ? AND"
                + " (s.created_at, s.id) > (?, ?) ORDER BY s.created_at, s.id LIMIT ?";
        StringBuilder arms = new StringBuilder("(");
        int count = 2 * WaitKind.values().length;
        for (int i = 0; i < count; i++) {
            arms.append(i == 0 ? "" : " UNION ALL ").append("SELECT * FROM (SELECT * FROM weft_sessions s").append(arm)
                    .append(") arm").append(i);
        }
        assertEquals(arms.append(")").toString(), select.source(), "an arm per status and kind");
        assertEquals(" ORDER BY s.created_at, s.id LIMIT ?", select.sql());
        List<Object> parameters = new ArrayList<>();
        for (String status : List.of("SUSPENDED", "FAILED")) {
            for (WaitKind kind : WaitKind.values()) {
                parameters.addAll(List.of(status, hostile, hostile, kind.name(), Long.MAX_VALUE, 42L, hostile, 8));
            }
        }
        parameters.add(8);
        assertEquals(parameters, select.parameters());
        SessionQueries.Select one = SessionQueries.page(SessionQuery.all().waitingForNothing().dueBefore(Instant.MIN));
        assertEquals("weft_sessions", one.source());
        assertEquals(" WHERE s.wait_kind IS NULL AND s.due_at < ? ORDER BY s.created_at, s.id LIMIT ?", one.sql());
        assertEquals(List.of(Long.MIN_VALUE, 101), one.parameters());
        assertEquals(" ORDER BY s.created_at, s.id LIMIT ?", SessionQueries.page(SessionQuery.all()).sql());
        SessionQueries.Select due = SessionQueries.page(SessionQuery.all().dueBefore(Instant.EPOCH));
        List<Object> perKind = new ArrayList<>();
        for (WaitKind kind : WaitKind.values()) {
            perKind.addAll(List.of(kind.name(), 0L, 101));
        }
        perKind.add(101);
        assertEquals(perKind, due.parameters(), "an arm per kind of wait");
    }

    @Test
    void aCursorIsThePositionItWasMadeFrom() {
        for (SessionCursor position : List.of(new SessionCursor(0, "a"), new SessionCursor(Long.MIN_VALUE, ""),
                new SessionCursor(Long.MAX_VALUE, "\ud83d\ude00".repeat(32)), new SessionCursor(-1, "x".repeat(64)),
                new SessionCursor(1_767_225_600_000L, "0b8e1c9e-5f5a-4a57-9f4e-9f3f2a4a3c1d"),
                new SessionCursor(7, "a\0b"))) {
            String text = position.text();
            assertTrue(text.matches("[A-Za-z0-9_-]+"), text);
            assertEquals(position, SessionCursor.of(text));
            assertEquals(position, SessionQuery.all().after(text).position());
        }
        assertEquals(new SessionCursor(5, ""), new SessionCursor(5, null), "a row stored without an id");
        assertEquals(SessionQuery.all(), SessionQuery.all().after(null), "the first page");
    }

    @Test
    void aCursorCutChangedOrMadeUpIsRefusedSayingWhy() {
        String good = new SessionCursor(1_767_225_600_000L, "0b8e1c9e-5f5a-4a57-9f4e-9f3f2a4a3c1d").text();
        assertRefused(good.substring(0, good.length() - 2), "its checksum does not match: it was cut or changed");
        assertRefused("", "it has 0 characters, and a cursor has 1 to 360");
        assertRefused("A".repeat(361), "it has 361 characters, and a cursor has 1 to 360");
        assertRefused("a+b/", "it is not URL-safe Base64");
        assertRefused("ab=c" + good, "it is not URL-safe Base64");
        assertRefused("AAAA", "it holds 3 bytes, too few for a position");
        assertRefused(java.util.Base64.getUrlEncoder().encodeToString(new byte[20]), "it is of version 0, not 1");
        assertRefused(withCrc(new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xc3, 0x28}), "its id is not UTF-8");
        byte[] long65 = new byte[9 + 65];
        long65[0] = 1;
        java.util.Arrays.fill(long65, 9, long65.length, (byte) 'x');
        assertRefused(withCrc(long65), "its id has 65 characters, more than a session's 64");
        IllegalArgumentException shown = assertThrows(IllegalArgumentException.class,
                () -> SessionCursor.of("\n\u0000" + "z".repeat(100)));
        assertTrue(shown.getMessage().startsWith("not a cursor of a page of sessions, '??" + "z".repeat(38)
                + "'... (102 characters): "), shown.getMessage());
    }

    /** Random changes to good cursors: each is refused with its reason, or names a position (never anything else). */
    @Test
    void aFuzzOfCursorsIsRefusedOrTakenAsAPosition() {
        Random random = new Random(Long.getLong("weft.cursorfuzz.seed", 20260101L));
        int refused = 0;
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            SessionCursor position = new SessionCursor(random.nextLong(), randomId(random));
            String text = mutated(random, position.text());
            try {
                SessionCursor read = SessionCursor.of(text);
                assertTrue(read.id().length() <= 64, read.toString());
                taken.add(text);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().startsWith("not a cursor of a page of sessions, '"), e.getMessage());
                assertTrue(e.getMessage().endsWith("; give a page's next() as it is"), e.getMessage());
                refused++;
            }
        }
        assertTrue(refused > 19_000, refused + " refused; taken: " + taken.subList(0, Math.min(10, taken.size())));
    }

    private static String randomId(Random random) {
        StringBuilder id = new StringBuilder();
        int length = random.nextInt(65);
        for (int i = 0; i < length; i++) {
            id.append(random.nextInt(4) == 0 ? (char) (1 + random.nextInt(0xd7ff)) : (char) ('a' + random.nextInt(26)));
        }
        return id.toString();
    }

    private static String mutated(Random random, String text) {
        StringBuilder changed = new StringBuilder(text);
        int changes = 1 + random.nextInt(3);
        for (int i = 0; i < changes; i++) {
            int at = changed.length() == 0 ? 0 : random.nextInt(changed.length());
            switch (random.nextInt(6)) {
                case 0 -> changed.setLength(at);
                case 1 -> changed.insert(at, (char) random.nextInt(0x80));
                case 2 -> {
                    if (changed.length() > 0) {
                        changed.setCharAt(at, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                                .charAt(random.nextInt(64)));
                    }
                }
                case 3 -> changed.append("A".repeat(random.nextInt(400)));
                case 4 -> {
                    if (changed.length() > 0) {
                        changed.deleteCharAt(at);
                    }
                }
                default -> changed.insert(at, (char) random.nextInt(0x10000));
            }
        }
        return changed.toString();
    }

    private static String withCrc(byte[] bytes) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(java.nio.ByteBuffer
                .allocate(bytes.length + 4).put(bytes).putInt((int) crc.getValue()).array());
    }

    private static void assertRefused(String cursor, String why) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SessionQuery.all().after(cursor), cursor);
        assertTrue(refused.getMessage().startsWith("not a cursor of a page of sessions, '"), refused.getMessage());
        assertTrue(refused.getMessage().endsWith(": " + why + "; give a page's next() as it is"), refused.getMessage());
    }
}
