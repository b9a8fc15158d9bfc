package dev.weft.sessions;

/**
 * What one step of a session produced.
 *
 * @param id       the session's id
 * @param version  the session's version after this step: how many steps have run; pass it to
 *                 {@link Sessions#resume(String, long, Object)} to answer this step exactly once
 * @param finished whether the body has returned (then {@code output} is its return value)
 * @param output   what the body passed to {@code ret}, or returned
 * @param <O>      the output type
 */
public record SessionStep<O>(String id, long version, boolean finished, O output) {
}
