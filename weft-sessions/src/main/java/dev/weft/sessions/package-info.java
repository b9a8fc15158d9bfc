/**
 * Durable sessions (thesis 5.2 at scale): a session is a suspended
 * {@link dev.weft.AsymCoroutine} stored under an id, resumed by whichever node gets its next
 * input. Start with {@link dev.weft.sessions.Sessions}; the stores are
 * {@link dev.weft.sessions.SessionStore#sqlite(java.nio.file.Path)} (embedded, the default) and
 * {@link dev.weft.sessions.SessionStore#postgres(String, String, String)}.
 */
package dev.weft.sessions;
