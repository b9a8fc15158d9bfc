package dev.weft.internal.contract;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * How a woven class carries its two tables in its string constants: the text's UTF-8, deflated
 * ({@code java.util.zip}, with its zlib header and checksum), then seven bits a character, each
 * character 0 to 127, after {@link #MARK}. In a class file's modified UTF-8 such a character is
 * one byte (the character 0 two), so the constants hold about 8/7 of the deflated bytes, where
 * the plain text, mostly type descriptors repeated from site to site, is four to six times that.
 * The weaver packs ({@link #pack}); the runtime unpacks ({@link #unpack}) when it first needs a
 * class's tables.
 *
 * <pre>
 *     packed = MARK + septets(deflate(utf8(text)))   // the last septet padded with zero bits
 * </pre>
 *
 * <p>Stateless; any thread.
 */
public final class PackedText {

    /** The first character of a packed text, which starts no plain table or landing map. */
    public static final char MARK = '\u0001';

    private PackedText() {
    }

    /** {@code text}, packed. */
    public static String pack(String text) {
        byte[] deflated = deflate(text.getBytes(StandardCharsets.UTF_8));
        StringBuilder packed = new StringBuilder(2 + (deflated.length * 8 + 6) / 7);
        packed.append(MARK);
        int bits = 0;
        int pending = 0;
        for (byte b : deflated) {
            pending = pending << 8 | b & 0xFF;
            bits += 8;
            while (bits >= 7) {
                bits -= 7;
                packed.append((char) (pending >>> bits & 0x7F));
            }
            pending &= (1 << bits) - 1;
        }
        if (bits > 0) {
            packed.append((char) (pending << (7 - bits) & 0x7F));
        }
        return packed.toString();
    }

    /** Whether {@code text} is packed: it starts with {@link #MARK}. */
    public static boolean isPacked(String text) {
        return !text.isEmpty() && text.charAt(0) == MARK;
    }

    /**
     * The text {@code packed} holds.
     *
     * @throws IllegalArgumentException if it is not a packed text, or its bytes do not inflate
     *         whole (a character above 127, a wrong checksum, bytes missing or left over)
     */
    public static String unpack(String packed) {
        if (!isPacked(packed)) {
            throw new IllegalArgumentException("not a packed text: it does not start with \\u0001");
        }
        byte[] deflated = new byte[(packed.length() - 1) * 7 / 8];
        int bits = 0;
        int pending = 0;
        int length = 0;
        for (int i = 1; i < packed.length(); i++) {
            char c = packed.charAt(i);
            if (c > 0x7F) {
                throw new IllegalArgumentException("not a packed text: character " + i + " is " + (int) c + ", above 127");
            }
            pending = pending << 7 | c;
            bits += 7;
            if (bits >= 8) {
                bits -= 8;
                deflated[length++] = (byte) (pending >>> bits);
                pending &= (1 << bits) - 1;
            }
        }
        return new String(inflate(deflated), StandardCharsets.UTF_8);
    }

    private static byte[] deflate(byte[] bytes) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        try {
            deflater.setInput(bytes);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 16);
            byte[] buffer = new byte[8192];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static byte[] inflate(byte[] bytes) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(bytes);
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length * 5);
            byte[] buffer = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("not a packed text: its bytes end before the deflated data does");
                }
                out.write(buffer, 0, n);
            }
            if (inflater.getRemaining() != 0) {
                throw new IllegalArgumentException("not a packed text: " + inflater.getRemaining()
                        + " byte(s) follow the deflated data");
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a packed text: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
