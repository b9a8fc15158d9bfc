package dev.weft;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InvalidObjectException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A method reference read from a stream is resolved without trusting the stream: a missing
 * fingerprint is refused, and a class it names is neither initialized nor looked into further
 * unless it is woven.
 */
class MethodReferenceTest {

    /** Set by {@link Tripwire}'s static initializer. */
    static final AtomicBoolean TRIPPED = new AtomicBoolean();

    /** A class that is not woven and whose static initializer has a side effect. */
    static final class Tripwire {
        static {
            TRIPPED.set(true);
        }

        static void run() {
        }
    }

    private static ClassLoader loader() {
        return MethodReferenceTest.class.getClassLoader();
    }

    @Test
    void aMissingFingerprintIsRefused() {
        MethodReference reference = new MethodReference(Tripwire.class.getName(), "run", "()V", null);
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> reference.resolve(loader()));
        assertTrue(e.getMessage().contains(Tripwire.class.getName() + ".run()V")
                && e.getMessage().contains("no fingerprint"), e.getMessage());
    }

    @Test
    void aClassThatIsNotWovenIsNeverInitialized() {
        MethodReference reference = new MethodReference(Tripwire.class.getName(), "run", "()V", "0123456789abcdef");
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> reference.resolve(loader()));
        assertTrue(e.getMessage().contains("is not woven"), e.getMessage());
        assertFalse(TRIPPED.get(), "its static initializer ran");
    }
}
