package dev.weft.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/** What every event of a coroutine's life says of it: its name, kind and engine; the thread is the event's. */
@Category({"Weft", "Coroutines"})
@StackTrace(false)
abstract class CoroutineEvent extends Event {

    @Label("Coroutine")
    @Description("The coroutine's name")
    String coroutine;

    @Label("Kind")
    @Description("symmetric or asymmetric")
    String kind;

    @Label("Engine")
    @Description("native or woven")
    String engine;
}
