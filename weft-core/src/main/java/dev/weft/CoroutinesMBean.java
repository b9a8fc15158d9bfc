package dev.weft;

import javax.management.openmbean.CompositeData;

/**
 * The JVM's live coroutines through JMX, under the name {@value #OBJECT_NAME} in the platform
 * MBean server, for jconsole, VisualVM, {@code jcmd} and any JMX client: the same
 * {@link CoroutineDump} as the API gives, as text and as open data (a standard MBean, whose
 * values are JDK classes any client reads). Read-only: no operation
 * changes anything but the moment's {@linkplain CoroutineBase.State#BUSY busy} hold that
 * reading a suspended coroutine's stack takes.
 *
 * <p>Registered by {@link CoroutineDump#registerMBean()}, or, with the system property
 * {@value CoroutineDump#MBEAN_PROPERTY}{@code =true}, by the first coroutine operation of the
 * JVM. It is not registered unasked: that would create the platform MBean server, and load JMX,
 * in every program at its first coroutine.
 *
 * <p>Its operations may be called from any thread.
 */
public interface CoroutinesMBean {

    /** The name under which it is registered. */
    String OBJECT_NAME = "dev.weft:type=Coroutines";

    /**
     * The dump of every thread's live coroutines as text ({@link CoroutineDump#toString()}).
     *
     * @return the dump's text
     */
    String dump();

    /**
     * The same dump as open data: one item per coroutine, with the items {@code name},
     * {@code kind}, {@code engine} and {@code state} (the enum constants' names), {@code thread}
     * and {@code threadId} (its owner's name and id), and {@code stackTrace}, its frames
     * innermost first, each as {@link StackTraceElement#toString()} gives it.
     *
     * @return the coroutines, in the dump's order
     */
    CompositeData[] coroutines();

    /**
     * How many live coroutines the JVM has: the length of {@link #coroutines()}.
     *
     * @return the count
     */
    int getLiveCount();
}
