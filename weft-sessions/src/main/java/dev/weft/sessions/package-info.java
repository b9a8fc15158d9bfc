/**
 * Durable sessions (thesis 5.2 at scale): a session is a suspended
 * {@link dev.weft.AsymCoroutine} stored under an id, resumed by whichever node gets its next
 * input, one database transaction per step.
 *
 * <ul>
 *   <li>{@link dev.weft.sessions.Sessions}: start, resume (exactly once, with an optional
 *       expected version for resent answers), status (with what a session waits for until
 *       when), list, last output, remove; builds and upgrades; sealing of every stored row.</li>
 *   <li>{@link dev.weft.sessions.SessionQuery} and {@link dev.weft.sessions.SessionPage}: the
 *       stored sessions that pass filters (status, build, point, parent, kind of wait, due time), a page
 *       at a time, each page read by an index from the last one's position, whatever the
 *       store's size.</li>
 *   <li>{@link dev.weft.sessions.SessionStore}: where sessions live,
 *       {@link dev.weft.sessions.SessionStore#sqlite(java.nio.file.Path)} (embedded, the default:
 *       one file, write-ahead log, {@code synchronous=FULL}) or
 *       {@link dev.weft.sessions.SessionStore#postgres(String, String, String)} (several nodes,
 *       row locks); two tables created on first use, {@code weft_sessions} (a row per
 *       session) and {@code weft_builds} (each build's manifest, once).</li>
 *   <li>{@link dev.weft.sessions.StepContext}: for a body's own code during a step: the step's
 *       transaction, which the body's writes join, and the named point (with plain JDK values)
 *       an upgrade to new code starts from; its waits (sleep, input, message); and its children
 *       ({@link dev.weft.sessions.StepContext#startChild}), started in its step's transaction,
 *       whose ends come to its inbox as {@link dev.weft.sessions.ChildOutcome}s.</li>
 *   <li>{@link dev.weft.sessions.Sessions.Builder#keepHistory}: an optional history of the steps
 *       each session took ({@link dev.weft.sessions.SessionHistoryEntry}, read with
 *       {@link dev.weft.sessions.Sessions#history}), written in each step's own transaction and
 *       kept for a retention period.</li>
 *   <li>Deadlines ({@link dev.weft.sessions.Sessions.Builder#deadline}): a session past its
 *       deadline is cancelled by a worker, with its children, as
 *       {@link dev.weft.sessions.Sessions#cancel} cancels one.</li>
 *   <li>{@link dev.weft.sessions.SessionObserver}: told of each step after its commit or
 *       rollback, for metrics and traces; {@code dev.weft.sessions.micrometer} (Micrometer's
 *       meters) and {@code dev.weft.sessions.opentelemetry} (OpenTelemetry's spans, a worker's
 *       step linked to the span that sent its message) implement it, each library an optional
 *       dependency.</li>
 *   <li>{@link dev.weft.sessions.SessionsCommand}: the stored sessions by build and this node's
 *       verdict, from the command line, filtered and paged as a query is; a session's step
 *       history.</li>
 *   <li>The exceptions: every refusal is a {@link dev.weft.sessions.SessionException} naming the
 *       session and why (not found, busy, failed, refused by this build, conflict); a store that
 *       cannot be reached is {@link dev.weft.sessions.SessionStoreUnavailableException} (retry),
 *       and a step whose {@code COMMIT} was sent but whose reply was lost is
 *       {@link dev.weft.sessions.SessionOutcomeUnknownException} (it may be stored).</li>
 * </ul>
 *
 * <p>A body's classes must be woven, as for any serialized coroutine; a node's steps run on the
 * engine it is built with ({@link dev.weft.sessions.Sessions.Builder#engine}), and a session
 * stored by a node of one engine is resumed by a node of the other. A step's database writes through {@link dev.weft.sessions.StepContext#connection()}
 * commit exactly once, with the new state; any other side effect runs at least once.
 *
 * <p>Every byte read from the store is hostile until checked. With a key
 * ({@link dev.weft.sessions.Sessions.Builder#sealWith}), each row carries an HMAC-SHA256 of every
 * column a node trusts (id, status, version, build, point, point values, state, output, failure,
 * times), checked before anything of the row is used: a changed column, a value from another
 * session's row or from an older version of the row is refused with
 * {@link dev.weft.sessions.SessionRefusedException} naming the session and the column, and the
 * row is left as it was. A row without that seal (from a node without a key, or sealed by the
 * earlier state-only format) is refused by a node with a key, with that reason. With or without a
 * key: a status that is none of {@link dev.weft.sessions.SessionStatus}'s and a version that is
 * not a step's number are refused naming the column; a build's manifest is used only if it hashes
 * to the row's build, up to 1 MiB, and a malformed one, or one naming classes that cannot be
 * loaded, is a refusal with its reason (classes looked up without initialization; verdicts kept
 * for a bounded number of manifests); stored outputs and point values are read under limits.
 * A whole row put back as it was at an older version is a row the key sealed (as a backup):
 * a resume that names the version it answers detects it
 * ({@link dev.weft.sessions.SessionConflictException}).
 */
package dev.weft.sessions;
