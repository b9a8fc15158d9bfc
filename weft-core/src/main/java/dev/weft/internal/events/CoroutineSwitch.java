package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A coroutine was taken by its thread to run: started, resumed, or taken to be closed or serialized. Off by default: one event per switch. */
@Name("dev.weft.CoroutineSwitch")
@Label("Coroutine Switch")
@Description("A coroutine was taken by its thread to run: started, resumed, or taken to be closed or serialized. Off by default: one event per switch.")
@Enabled(false)
final class CoroutineSwitch extends CoroutineEvent {
    @Label("Previous State")
    @Description("The state it was taken from: new or suspended")
    String previousState;
}
