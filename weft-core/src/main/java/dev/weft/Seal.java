package dev.weft;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.io.StreamCorruptedException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * The integrity seal of a coroutine stream written with a key: the whole stream of records, framed
 * and followed by its HMAC-SHA256, so that a reader with the key checks every byte before it
 * reads a single object.
 *
 * <pre>
 *   int   MAGIC          0x57465331 ("WFS1"); an unsealed stream starts with a record's magic instead
 *   int   length         of the payload, at most {@link #MAX_PAYLOAD}
 *   byte  payload[length] the records ({@link FrameCodec}), as an unsealed CoroutineOutputStream writes them
 *   byte  mac[32]        HMAC-SHA256 of the three fields above, under the writer's key
 * </pre>
 *
 * The record is the whole stream: the writer closes it after the seal, and a reader refuses
 * anything after it.
 *
 * Stateless; any thread.
 */
final class Seal {

    static final int MAGIC = 0x57465331;
    static final String ALGORITHM = "HmacSHA256";
    static final int MAC_LENGTH = 32;
    /** The largest payload a reader accepts: 256 MiB. */
    static final int MAX_PAYLOAD = 256 << 20;

    private Seal() {
    }

    /** The payload bytes a sealing output stream collects, exposed without a copy. */
    static final class Buffer extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }

        int length() {
            return count;
        }
    }

    /** Writes {@code payload[0..length)} sealed under {@code key} to {@code out}. */
    static void write(OutputStream out, byte[] payload, int length, SecretKey key) throws IOException {
        Mac mac = mac(key);
        ByteArrayOutputStream header = new ByteArrayOutputStream(8);
        DataOutputStream data = new DataOutputStream(header);
        data.writeInt(MAGIC);
        data.writeInt(length);
        mac.update(header.toByteArray());
        mac.update(payload, 0, length);
        out.write(header.toByteArray());
        out.write(payload, 0, length);
        out.write(mac.doFinal());
        out.flush();
    }

    /**
     * Reads a sealed stream from {@code in} and checks its seal against each of {@code keys}:
     * the payload, once one key's seal matches.
     *
     * @throws StreamCorruptedException if the stream is not sealed, is truncated, is too long,
     *         or its seal matches none of the keys
     */
    static byte[] read(InputStream in, List<SecretKey> keys) throws IOException {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no key to check the seal with");
        }
        DataInputStream data = new DataInputStream(in);
        byte[] header = readFully(data, 8, "its header");
        int magic = (header[0] & 0xFF) << 24 | (header[1] & 0xFF) << 16 | (header[2] & 0xFF) << 8 | header[3] & 0xFF;
        if (magic != MAGIC) {
            throw new StreamCorruptedException(magic == FrameCodec.MAGIC
                    ? "cannot read a coroutine: the stream is not sealed, but a key was given (a sealed stream is"
                            + " written by new CoroutineOutputStream(out, key))"
                    : magic >>> 16 == FrameCodec.JAVA_STREAM_MAGIC
                    ? "cannot read a coroutine: the stream is a Java object stream (it starts with 0xACED), as Weft"
                            + " wrote coroutines before its own format: such streams are no longer read"
                    : "cannot read a coroutine: the stream is not a sealed coroutine stream (it starts with "
                            + String.format("0x%08x", magic) + ")");
        }
        int length = (header[4] & 0xFF) << 24 | (header[5] & 0xFF) << 16 | (header[6] & 0xFF) << 8 | header[7] & 0xFF;
        if (length < 0 || length > MAX_PAYLOAD) {
            throw new StreamCorruptedException("cannot read a coroutine: the sealed stream says it holds " + length
                    + " bytes, more than the " + MAX_PAYLOAD + " a reader accepts (or the header was changed)");
        }
        byte[] payload = readFully(data, length, "its " + length + " bytes of payload");
        byte[] seal = readFully(data, MAC_LENGTH, "its seal");
        if (data.read() >= 0) {
            throw new StreamCorruptedException("cannot read a coroutine: the sealed stream goes on after its seal"
                    + " (a sealed stream is the whole stream; bytes were added)");
        }
        for (SecretKey key : keys) {
            Mac mac = mac(key);
            mac.update(header);
            if (MessageDigest.isEqual(mac.doFinal(payload), seal)) {
                return payload;
            }
        }
        throw new StreamCorruptedException("cannot read a coroutine: its seal matches none of the " + keys.size()
                + " key(s) given: the bytes were changed since they were sealed, or sealed with another key");
    }

    /** Exactly {@code n} bytes; a stream that ends sooner is truncated. Reads in steps: a false length allocates nothing. */
    private static byte[] readFully(DataInputStream in, int n, String what) throws IOException {
        byte[] bytes = in.readNBytes(n);
        if (bytes.length < n) {
            throw new StreamCorruptedException("cannot read a coroutine: the sealed stream ends before " + what
                    + " (" + bytes.length + " of " + n + " bytes): it is truncated");
        }
        return bytes;
    }

    /**
     * {@code in}, checked to start like an unsealed coroutine stream, for a reader given no key:
     * a sealed stream, or one shorter than a stream header, is refused with a message that says so.
     */
    static InputStream unsealed(InputStream in) throws IOException {
        PushbackInputStream peek = new PushbackInputStream(in, 4);
        byte[] start = peek.readNBytes(4);
        if (start.length < 4) {
            throw new StreamCorruptedException("cannot read a coroutine: the stream ends after " + start.length
                    + " byte(s), before the 4 of a stream header: it is empty or truncated");
        }
        int magic = (start[0] & 0xFF) << 24 | (start[1] & 0xFF) << 16 | (start[2] & 0xFF) << 8 | start[3] & 0xFF;
        if (magic == MAGIC) {
            throw new StreamCorruptedException("cannot read a coroutine: the stream is sealed; read it with its key"
                    + " (new CoroutineInputStream(in, key))");
        }
        peek.unread(start);
        return peek;
    }

    private static Mac mac(SecretKey key) throws IOException {
        if (key == null) {
            throw new NullPointerException("key");
        }
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot seal or check a seal with key " + key.getAlgorithm() + ": " + e.getMessage(), e);
        }
    }
}
