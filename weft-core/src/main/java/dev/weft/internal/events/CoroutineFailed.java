package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A coroutine's body threw: it finished, and the exception goes to whoever receives control next. */
@Name("dev.weft.CoroutineFailed")
@Label("Coroutine Failed")
@Description("A coroutine's body threw: it finished, and the exception goes to whoever receives control next.")
final class CoroutineFailed extends CoroutineEvent {
    @Label("Exception Class")
    @Description("The class of the exception it threw")
    String exceptionClass;

    @Label("Exception Message")
    @Description("The message of the exception it threw")
    String exceptionMessage;
}
