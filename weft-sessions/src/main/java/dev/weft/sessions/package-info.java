/**
 * Durable sessions (thesis 5.2 at scale): a session is a suspended
 * {@link dev.weft.AsymCoroutine} stored under an id, resumed by whichever node gets its next
 * input, one database transaction per step.
 *
 * <ul>
 *   <li>{@link dev.weft.sessions.Sessions}: start, resume (exactly once, with an optional
 *       expected version for resent answers), status, list, last output, remove; builds and
 *       upgrades; sealing with the coroutine streams' HMAC.</li>
 *   <li>{@link dev.weft.sessions.SessionStore}: where sessions live,
 *       {@link dev.weft.sessions.SessionStore#sqlite(java.nio.file.Path)} (embedded, the default:
 *       one file, write-ahead log, {@code synchronous=FULL}) or
 *       {@link dev.weft.sessions.SessionStore#postgres(String, String, String)} (several nodes,
 *       row locks); two tables created on first use, {@code weft_sessions} (a row per
 *       session) and {@code weft_builds} (each build's manifest, once).</li>
 *   <li>{@link dev.weft.sessions.StepContext}: for a body's own code during a step: the step's
 *       transaction, which the body's writes join, and the named point (with plain JDK values)
 *       an upgrade to new code starts from.</li>
 *   <li>{@link dev.weft.sessions.SessionsCommand}: the stored sessions by build and this node's
 *       verdict, from the command line.</li>
 *   <li>The exceptions: every refusal is a {@link dev.weft.sessions.SessionException} naming the
 *       session and why (not found, busy, failed, refused by this build, conflict).</li>
 * </ul>
 *
 * <p>A body's classes must be woven, as for any serialized coroutine; a node's steps run on the
 * engine it is built with ({@link dev.weft.sessions.Sessions.Builder#engine}), and a session
 * stored by a node of one engine is resumed by a node of the other. A step's database writes through {@link dev.weft.sessions.StepContext#connection()}
 * commit exactly once, with the new state; any other side effect runs at least once.
 */
package dev.weft.sessions;
