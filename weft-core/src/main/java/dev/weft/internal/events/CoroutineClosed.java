package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A coroutine was closed: it finished through CoroutineExitException, its finally blocks run, or before it ever ran. */
@Name("dev.weft.CoroutineClosed")
@Label("Coroutine Closed")
@Description("A coroutine was closed: it finished through CoroutineExitException, its finally blocks run, or before it ever ran.")
final class CoroutineClosed extends CoroutineEvent {}
