/**
 * OpenTelemetry's spans of a node's sessions: {@link dev.weft.sessions.opentelemetry.SessionsTracing},
 * a {@link dev.weft.sessions.SessionObserver}. Needs {@code io.opentelemetry:opentelemetry-api},
 * an optional dependency of weft-sessions: a node that does not use this package never loads it.
 */
package dev.weft.sessions.opentelemetry;
