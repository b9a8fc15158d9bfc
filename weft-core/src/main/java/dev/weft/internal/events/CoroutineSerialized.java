package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A suspended coroutine's frames were captured. */
@Name("dev.weft.CoroutineSerialized")
@Label("Coroutine Serialized")
@Description("A suspended coroutine's frames were captured.")
final class CoroutineSerialized extends CoroutineEvent {
    @Label("Frames")
    @Description("How many frames it had")
    int frames;
}
