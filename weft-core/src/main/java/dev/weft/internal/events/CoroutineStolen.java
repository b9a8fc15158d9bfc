package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A suspended or new coroutine moved to the thread of this event. */
@Name("dev.weft.CoroutineStolen")
@Label("Coroutine Stolen")
@Description("A suspended or new coroutine moved to the thread of this event.")
final class CoroutineStolen extends CoroutineEvent {
    @Label("From Thread")
    @Description("The name of the thread it belonged to")
    String fromThread;
}
