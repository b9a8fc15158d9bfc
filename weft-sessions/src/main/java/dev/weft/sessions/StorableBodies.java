package dev.weft.sessions;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;

/**
 * Refuses, before a session's first step runs, a body that could not be stored: a session's
 * frames hold its body (the receiver of its {@code run}), which is stored by Java serialization
 * with everything its fields hold. A body is written once to a stream that discards it, so that
 * a field holding something that cannot be serialized is named now rather than after the first
 * step ran. A lambda or method reference is not checked here: its frames hold what it captured,
 * not the lambda, and that is checked when the step is stored. What a body's fields hold later
 * is checked when each step is stored.
 *
 * <p>Stateless; any thread.
 */
final class StorableBodies {

    private StorableBodies() {
    }

    /**
     * Throws unless {@code body} can be stored as it is.
     *
     * @throws IllegalArgumentException naming the body's class and the class that cannot be stored
     */
    static void check(Object body) {
        Class<?> type = body.getClass();
        if (type.isHidden()) {
            return;
        }
        if (!(body instanceof Serializable)) {
            throw refusal(type, type.getName() + " does not implement java.io.Serializable", null);
        }
        try (ObjectOutputStream out = new ObjectOutputStream(OutputStream.nullOutputStream())) {
            out.writeObject(body);
        } catch (NotSerializableException e) {
            throw refusal(type, "it holds a " + e.getMessage() + ", which is not java.io.Serializable", e);
        } catch (IOException | RuntimeException e) {
            throw refusal(type, "it cannot be serialized: " + e, e);
        }
    }

    private static IllegalArgumentException refusal(Class<?> type, String reason, Throwable cause) {
        return new IllegalArgumentException("cannot start a session with a " + type.getName() + " as its body: "
                + reason + "; a session stores its body with its frames, so the body's class must implement"
                + " java.io.Serializable, and so must everything its fields hold (mark a field that need not be"
                + " stored transient); nothing ran or was stored", cause);
    }
}
