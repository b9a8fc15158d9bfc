package dev.weft.examples.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock that runs with real time and that a demonstration moves on by hand, so that "a day
 * passes" takes no time: {@link #advance} adds to how far ahead of its start it is. Given to a
 * node as its clock ({@code Sessions.Builder.clock}), it is what the node's workers compare due
 * times with. Thread-safe: advanced by one thread, read by any.
 */
public final class TransportedClock extends Clock {

    private final Clock base;
    private final Instant start;
    private volatile Duration ahead = Duration.ZERO;

    /** A clock that stands still at {@code start} until advanced (a transcript's). */
    public TransportedClock(Instant start) {
        this(Clock.fixed(start, ZoneOffset.UTC));
    }

    /** A clock that runs with {@code base} until advanced, then that far ahead of it. */
    public TransportedClock(Clock base) {
        this.base = base;
        this.start = base.instant();
    }

    /** Moves this clock on by {@code duration}. */
    public void advance(Duration duration) {
        ahead = ahead.plus(duration);
    }

    /** How far this clock has been moved on, in all. */
    public Duration ahead() {
        return ahead;
    }

    @Override
    public Instant instant() {
        return base.instant().plus(ahead);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a transported clock is UTC, from " + start);
    }
}
