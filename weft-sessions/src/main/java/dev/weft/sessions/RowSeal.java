package dev.weft.sessions;

import dev.weft.sessions.SessionStore.Row;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * The seal of a stored row: an HMAC-SHA256, under the node's key, of every column a node trusts
 * from the row, bound to the session's id and version, kept in the row's {@code seal} column.
 *
 * <pre>
 *   byte  magic[4]       "WRS1"; "WRS2" for a row that waits (its wait_kind or due_at is set);
 *                        "WRS3" for a row of a failed step (its attempts or retry_input is set);
 *                        "WRS4" for a row of a child session or one with a deadline (its
 *                        parent_id or deadline_at is set)
 *   int   crc[n]         CRC32C of each sealed column as encoded below, in {@link #COLUMNS}' order:
 *                        the first 11 for WRS1, 13 for WRS2, 15 for WRS3, all 17 for WRS4
 *   byte  mac[32]        HMAC-SHA256 of magic, crc[] and each sealed column encoded below
 * </pre>
 *
 * A row that waits for nothing is sealed as rows were before sessions waited (WRS1), so that
 * nodes of that version still read it; a WRS1 seal also says that the wait columns are NULL,
 * so a wait added to such a row in the store is refused as a change of those columns. In the
 * same way a row with no failed attempt is sealed as WRS1 or WRS2, which say that the retry
 * columns are NULL, and a row with no parent and no deadline as WRS1 to WRS3, which say that
 * those two columns are NULL: a node that knows only the older formats reads every row that
 * sets none of the newer columns, and refuses (by its magic) one that does.
 *
 * A column is encoded as its name's index (one byte), then for a text or bytes column a presence
 * byte (0 for NULL) and, if present, a length (int) and the bytes (text as UTF-8); a number
 * column as its 8 bytes. The CRCs are not what protects the row (the MAC covers every column in
 * full); they let a refusal name the column that differs from what was sealed. The row's
 * manifest is not sealed: its build is, and a manifest is accepted only for the build it hashes
 * to ({@link Builds#refusal(String, String)}).
 *
 * <p>A message in a session's inbox ({@link Inbox}) is sealed the same way, in its own
 * {@code seal} column: "WMS1", then the HMAC-SHA256 of that magic and of its session's id,
 * its time sent and its payload, encoded as columns 0 to 2 are above; so that a message changed
 * in the store, or moved to another session's inbox, is refused.
 *
 * <p>A node's first key seals; every key it has is accepted. Stateless but for a per-thread
 * {@link Mac} per key; any thread.
 */
final class RowSeal {

    /** The sealed columns, in the order they are encoded. */
    static final List<String> COLUMNS = List.of("id", "status", "version", "build", "point", "point_values", "state",
            "output", "failure", "created_at", "updated_at", "wait_kind", "due_at", "attempts", "retry_input",
            "parent_id", "deadline_at");
    /** "WRS1": the first {@link #WITHOUT_WAIT} columns sealed, the wait columns NULL. */
    static final int MAGIC = 0x57525331;
    /** "WRS2": the first {@link #WITHOUT_RETRY} columns sealed, the retry columns NULL. */
    static final int MAGIC_WAITING = 0x57525332;
    /** "WRS3": the first {@link #WITHOUT_FAMILY} columns sealed, the parent and deadline columns NULL. */
    static final int MAGIC_RETRYING = 0x57525333;
    /** "WRS4": every column sealed. */
    static final int MAGIC_FAMILY = 0x57525334;
    static final int WITHOUT_WAIT = 11;
    static final int WITHOUT_RETRY = 13;
    static final int WITHOUT_FAMILY = 15;
    /** "WMS1": a message's seal. */
    static final int MESSAGE_MAGIC = 0x574d5331;
    static final int MAC_LENGTH = 32;
    static final int LENGTH = length(WITHOUT_WAIT);

    private static int length(int columns) {
        return 4 + 4 * columns + MAC_LENGTH;
    }

    private final List<SecretKey> keys;
    private final ThreadLocal<Mac[]> macs;

    RowSeal(List<SecretKey> keys) {
        this.keys = keys;
        this.macs = ThreadLocal.withInitial(() -> new Mac[keys.size()]);
        for (int key = 0; key < keys.size(); key++) {
            mac(key);
        }
    }

    /** Whether this node seals rows (it has a key). */
    boolean sealing() {
        return !keys.isEmpty();
    }

    /** The seal of {@code row} under this node's first key. */
    byte[] seal(Row row) {
        int sealed = family(row) ? COLUMNS.size() : retries(row) ? WITHOUT_FAMILY : waits(row) ? WITHOUT_RETRY
                : WITHOUT_WAIT;
        byte[][][] columns = encode(row, sealed);
        int length = length(columns.length);
        ByteBuffer seal = ByteBuffer.allocate(length);
        seal.putInt(magic(sealed));
        for (byte[][] column : columns) {
            seal.putInt(crc(column));
        }
        seal.put(mac(0, seal.array(), length - MAC_LENGTH, columns));
        return seal.array();
    }

    /** The seal of a message to session {@code sessionId}, under this node's first key. */
    byte[] sealMessage(String sessionId, long sentAt, byte[] payload) {
        ByteBuffer seal = ByteBuffer.allocate(4 + MAC_LENGTH);
        seal.putInt(MESSAGE_MAGIC);
        seal.put(mac(0, seal.array(), 4, message(sessionId, sentAt, payload)));
        return seal.array();
    }

    /**
     * Why a stored message is not to be trusted by this node; null if it is: sealed under one
     * of its keys and unchanged, or with no key, not sealed.
     */
    String messageMismatch(Inbox.Message message) {
        byte[] seal = message.seal();
        if (!sealing()) {
            return seal == null ? null : "its seal is set: it was sealed with a key, and this node has none";
        }
        if (seal == null) {
            return "its seal is NULL: it was sent by a node without a key";
        }
        if (seal.length != 4 + MAC_LENGTH || ByteBuffer.wrap(seal).getInt() != MESSAGE_MAGIC) {
            return "its seal holds " + seal.length + " bytes that are not a message's seal";
        }
        byte[][][] columns = message(message.sessionId(), message.sentAt(), message.payload());
        byte[] stored = Arrays.copyOfRange(seal, 4, seal.length);
        for (int key = 0; key < keys.size(); key++) {
            if (MessageDigest.isEqual(mac(key, seal, 4, columns), stored)) {
                return null;
            }
        }
        return "it differs from what was sealed: its payload or time changed in the store, it was moved from"
                + " another session's inbox, or it was sealed with another key";
    }

    private static byte[][][] message(String sessionId, long sentAt, byte[] payload) {
        return new byte[][][] {text(0, sessionId), number(1, sentAt), bytes(2, payload)};
    }

    private static boolean waits(Row row) {
        return row.waitKind() != null || row.dueAt() != null;
    }

    private static boolean retries(Row row) {
        return row.attempts() != null || row.retryInput() != null;
    }

    private static boolean family(Row row) {
        return row.parentId() != null || row.deadlineAt() != null;
    }

    private static int magic(int sealedColumns) {
        return sealedColumns == WITHOUT_WAIT ? MAGIC : sealedColumns == WITHOUT_RETRY ? MAGIC_WAITING
                : sealedColumns == WITHOUT_FAMILY ? MAGIC_RETRYING : MAGIC_FAMILY;
    }

    /** How many columns a seal of {@code magic} covers; 0 for no seal's magic. */
    private static int sealedColumns(int magic) {
        return magic == MAGIC ? WITHOUT_WAIT : magic == MAGIC_WAITING ? WITHOUT_RETRY
                : magic == MAGIC_RETRYING ? WITHOUT_FAMILY : magic == MAGIC_FAMILY ? COLUMNS.size() : 0;
    }

    /**
     * Why {@code row} does not match its seal, naming the columns that differ; null if it is
     * sealed under one of this node's keys and every sealed column is as it was sealed.
     */
    String mismatch(Row row) {
        byte[] seal = row.seal();
        if (seal == null) {
            return "column seal is NULL: the row was not sealed (written by a node without a key, or before"
                    + " rows were sealed, when only the state was: such a row is resumed only by a node of that"
                    + " earlier version)";
        }
        int magic = seal.length < 4 ? 0 : ByteBuffer.wrap(seal).getInt();
        int sealed = sealedColumns(magic);
        int length = length(sealed);
        if (sealed == 0 || seal.length != length) {
            return "column seal holds " + seal.length + " bytes that are not a row seal";
        }
        byte[][][] columns = encode(row, sealed);
        byte[] stored = Arrays.copyOfRange(seal, length - MAC_LENGTH, length);
        boolean matches = false;
        for (int key = 0; key < keys.size() && !matches; key++) {
            matches = MessageDigest.isEqual(mac(key, seal, length - MAC_LENGTH, columns), stored);
        }
        if (matches && sealed == WITHOUT_WAIT && waits(row)) {
            return differ(row.waitKind(), "wait_kind", row.dueAt(), "due_at")
                    + " from what was sealed: changed in the store (the row was sealed waiting for nothing)";
        }
        if (matches && sealed < WITHOUT_FAMILY && retries(row)) {
            return differ(row.attempts(), "attempts", row.retryInput(), "retry_input")
                    + " from what was sealed: changed in the store (the row was sealed with no failed attempt)";
        }
        if (matches && sealed < COLUMNS.size() && family(row)) {
            return differ(row.parentId(), "parent_id", row.deadlineAt(), "deadline_at")
                    + " from what was sealed: changed in the store (the row was sealed with no parent and no"
                    + " deadline)";
        }
        if (matches) {
            return null;
        }
        List<String> changed = new ArrayList<>();
        ByteBuffer header = ByteBuffer.wrap(seal);
        header.getInt();
        for (int i = 0; i < columns.length; i++) {
            if (header.getInt() != crc(columns[i])) {
                changed.add(COLUMNS.get(i));
            }
        }
        return changed.isEmpty()
                ? "column seal matches none of this node's " + keys.size() + " key(s): the row was sealed with"
                        + " another key, or its seal was changed"
                : (changed.size() == 1 ? "column " + changed.get(0) + " differs" : "columns " + String.join(", ",
                        changed) + " differ") + " from what was sealed: changed in the store, or taken from another"
                        + " session or another version of this one";
    }

    /** Names the one or two of the columns {@code first} and {@code second} that are set. */
    private static String differ(Object first, String firstName, Object second, String secondName) {
        return first != null && second != null ? "columns " + firstName + ", " + secondName + " differ"
                : "column " + (first != null ? firstName : secondName) + " differs";
    }

    /**
     * The first {@code sealed} columns, each as its encoding's head (index, presence, length) and
     * its value's bytes (or null).
     */
    private static byte[][][] encode(Row row, int sealed) {
        byte[][][] columns = {text(0, row.id()), text(1, row.statusName()), number(2, row.version()),
            text(3, row.build()), text(4, row.point()), bytes(5, row.pointValues()), bytes(6, row.state()),
            bytes(7, row.output()), text(8, row.failure()), number(9, row.created()), number(10, row.updated()),
            text(11, row.waitKind()), optionalNumber(12, row.dueAt()),
            optionalNumber(13, row.attempts() == null ? null : (long) row.attempts()), bytes(14, row.retryInput()),
            text(15, row.parentId()), optionalNumber(16, row.deadlineAt())};
        return Arrays.copyOf(columns, sealed);
    }

    private static byte[][] optionalNumber(int index, Long value) {
        return value == null ? new byte[][] {{(byte) index, 0}, null} : new byte[][] {ByteBuffer.allocate(10)
                .put((byte) index).put((byte) 1).putLong(value).array(), null};
    }

    private static byte[][] text(int index, String value) {
        return bytes(index, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[][] bytes(int index, byte[] value) {
        if (value == null) {
            return new byte[][] {{(byte) index, 0}, null};
        }
        return new byte[][] {ByteBuffer.allocate(6).put((byte) index).put((byte) 1).putInt(value.length).array(), value};
    }

    private static byte[][] number(int index, long value) {
        return new byte[][] {ByteBuffer.allocate(9).put((byte) index).putLong(value).array(), null};
    }

    private static int crc(byte[][] column) {
        CRC32C crc = new CRC32C();
        crc.update(column[0]);
        if (column[1] != null) {
            crc.update(column[1]);
        }
        return (int) crc.getValue();
    }

    private byte[] mac(int key, byte[] signed, int length, byte[][][] columns) {
        Mac mac = mac(key);
        mac.update(signed, 0, length);
        for (byte[][] column : columns) {
            mac.update(column[0]);
            if (column[1] != null) {
                mac.update(column[1]);
            }
        }
        return mac.doFinal();
    }

    private Mac mac(int key) {
        Mac[] cached = macs.get();
        if (cached[key] == null) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(keys.get(key));
                cached[key] = mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException("cannot seal rows with key " + key + " (" + keys.get(key)
                        .getAlgorithm() + "): " + e.getMessage(), e);
            }
        }
        return cached[key];
    }
}
