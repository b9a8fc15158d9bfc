package dev.weft.sessions;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32C;

/**
 * A position in the listing order of sessions, (creation time, id), as the text a
 * {@link SessionPage} hands out for its next page: the sessions after it are the next page's.
 * Only a position, never a filter or SQL: it is bound as two parameters.
 *
 * <pre>
 *   byte  version     1
 *   long  created     the creation time of the page's last session, epoch milliseconds
 *   byte  id[n]       its id, UTF-8, at most 64 characters (none for a row stored without an id)
 *   int   crc         CRC32C of the bytes before it
 * </pre>
 *
 * in URL-safe Base64 without padding. The checksum is not a seal (a cursor names only a
 * position, which any caller may ask for); it makes a cursor that was cut or changed by
 * accident, or made up, a clear refusal rather than some other position. Immutable.
 *
 * @param created the creation time of the last session before the position
 * @param id      that session's id; empty for a row stored without one (which sorts first)
 */
record SessionCursor(long created, String id) {

    SessionCursor {
        id = id == null ? "" : id;
    }

    private static final byte VERSION = 1;
    /** The longest id a session has, in characters (a longer one is refused: {@link RowReader#distrust}). */
    static final int MAX_ID = 64;
    /** The longest text a cursor is: an id of 64 characters of 4 bytes each, and the rest. */
    private static final int MAX_TEXT = (1 + 8 + 4 * MAX_ID + 4 + 2) / 3 * 4;

    /** Whether a cursor can name the position after a row of id {@code id}: a session's id, or none. */
    static boolean holds(String id) {
        return id == null || id.length() <= MAX_ID;
    }

    /** This position as a page's {@code next()}. */
    String text() {
        byte[] id = this.id.getBytes(StandardCharsets.UTF_8);
        ByteBuffer bytes = ByteBuffer.allocate(1 + 8 + id.length + 4);
        bytes.put(VERSION).putLong(created).put(id);
        bytes.putInt(crc(bytes.array(), bytes.position()));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    /**
     * The position {@code text} names.
     *
     * @throws IllegalArgumentException if it is not a cursor a page gave, saying why
     */
    static SessionCursor of(String text) {
        if (text.isEmpty() || text.length() > MAX_TEXT) {
            throw refused(text, "it has " + text.length() + " characters, and a cursor has 1 to " + MAX_TEXT);
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw refused(text, "it is not URL-safe Base64");
        }
        if (bytes.length < 1 + 8 + 4) {
            throw refused(text, "it holds " + bytes.length + " bytes, too few for a position");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (buffer.get() != VERSION) {
            throw refused(text, "it is of version " + bytes[0] + ", not " + VERSION);
        }
        int end = bytes.length - 4;
        if (buffer.getInt(end) != crc(bytes, end)) {
            throw refused(text, "its checksum does not match: it was cut or changed");
        }
        long created = buffer.getLong();
        String id;
        try {
            id = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 9, end - 9))
                    .toString();
        } catch (CharacterCodingException e) {
            throw refused(text, "its id is not UTF-8");
        }
        if (id.length() > MAX_ID) {
            throw refused(text, "its id has " + id.length() + " characters, more than a session's " + MAX_ID);
        }
        return new SessionCursor(created, id);
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }

    private static IllegalArgumentException refused(String text, String why) {
        return new IllegalArgumentException("not a cursor of a page of sessions, " + shown(text) + ": " + why
                + "; give a page's next() as it is");
    }

    /** A hostile text as a message quotes it: at most 40 characters, control characters as '?'. */
    private static String shown(String text) {
        String head = text.length() <= 40 ? text : text.substring(0, 40);
        CharBuffer shown = CharBuffer.allocate(head.length());
        head.chars().forEach(c -> shown.put(c < 0x20 || c == 0x7f ? '?' : (char) c));
        return "'" + shown.flip() + "'" + (text.length() > 40 ? "... (" + text.length() + " characters)" : "");
    }
}
