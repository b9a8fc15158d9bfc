package dev.weft.sessions;

import java.time.Instant;

/**
 * What the store says about one session, without loading its frames.
 *
 * @param id        the session's id
 * @param status    where it is
 * @param version   how many steps have run (the start is step 1)
 * @param build     the fingerprint of the code its frames were written by; null once it has ended
 * @param point     the named point it is suspended at ({@link StepContext#suspendingAt}), or null
 * @param failure   the body's exception (class, message, stack trace) if it failed, else null
 * @param created   when it was started
 * @param updated   when its last step was stored
 */
public record SessionInfo(String id, SessionStatus status, long version, String build, String point, String failure,
        Instant created, Instant updated) {
}
