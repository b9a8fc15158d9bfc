/**
 * Micrometer's meters of a node's sessions: {@link dev.weft.sessions.micrometer.SessionsMeters},
 * a {@link dev.weft.sessions.SessionObserver}. Needs {@code io.micrometer:micrometer-core}, an
 * optional dependency of weft-sessions: a node that does not use this package never loads it.
 */
package dev.weft.sessions.micrometer;
