package dev.weft.weaver;

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The text of a method's sites ({@code CoroutineOutputStream.sitesOf}) opened up and made again,
 * for tests that give a reader sites other than the writer's: URL-safe Base64, without padding,
 * of raw deflated bytes.
 */
final class SitesText {

    private SitesText() {
    }

    /** The bytes {@code text} holds, inflated. */
    static byte[] bytesOf(String text) throws DataFormatException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(Base64.getUrlDecoder().decode(text));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[4096];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && inflater.needsInput()) {
                    throw new DataFormatException("cut");
                }
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } finally {
            inflater.end();
        }
    }

    /** {@code bytes} deflated, as text. */
    static String textOf(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(deflated(bytes));
    }

    /** {@code bytes} deflated, raw. */
    static byte[] deflated(byte[] bytes) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        try {
            deflater.setInput(bytes);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[4096];
            while (!deflater.finished()) {
                out.write(chunk, 0, deflater.deflate(chunk));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }
}
