package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A coroutine was created, on the thread that owns it now. */
@Name("dev.weft.CoroutineCreated")
@Label("Coroutine Created")
@Description("A coroutine was created, on the thread that owns it now.")
final class CoroutineCreated extends CoroutineEvent {
    @Label("Coroutine Class")
    @Description("The coroutine's class")
    String coroutineClass;
}
