package dev.weft.contract;

import dev.weft.CoroutineFiles;
import dev.weft.Engine;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The child JVM of {@link CoroutineFilesKillTest}: writes a coroutine to a file with
 * {@link CoroutineFiles#write} again and again, each time holding the next {@link Payload}, and
 * reports its progress on standard output ({@code WROTE n} after the n-th write is done;
 * {@code WRITING n} while the n-th is being written), so that the parent kills it at a point
 * it knows. Arguments: the file, the engine, and the write to stop in (its payload waits,
 * mid-write, for input that never comes), or 0 to go on until killed.
 */
public final class KillMidWriteMain {

    static final SecretKey KEY = new SecretKeySpec(new byte[] {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, "HmacSHA256");

    private KillMidWriteMain() {
    }

    /** What the coroutine holds: a number and enough bytes that a write takes a while. */
    static final class Payload implements Serializable {
        private static final long serialVersionUID = 1L;
        static int stopIn;

        final int n;
        private final byte[] bulk = new byte[256 * 1024];

        Payload(int n) {
            this.n = n;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            System.out.println("WRITING " + n);
            System.out.flush();
            if (n == stopIn) {
                System.in.read(); // never answered: the parent kills this JVM here, mid-write
            }
        }
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        StreamSafetyTest.Holder co = new StreamSafetyTest.Holder(Engine.valueOf(args[1]));
        Payload.stopIn = Integer.parseInt(args[2]);
        co.call(new Payload(0));
        for (int n = 1; ; n++) {
            co.call(new Payload(n));
            CoroutineFiles.write(file, co, KEY);
            System.out.println("WROTE " + n);
            System.out.flush();
        }
    }
}
