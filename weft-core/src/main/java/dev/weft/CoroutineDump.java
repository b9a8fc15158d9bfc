package dev.weft;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The live coroutines of the JVM, or of one thread, with their stacks: what a thread dump is for
 * threads. A live coroutine is one that has run and not finished: running, calling another,
 * suspended, or busy for a moment; new and finished coroutines and threads' initial coroutines
 * are left out.
 *
 * <pre>{@code
 * System.out.println(CoroutineDump.ofAllThreads());   // or: for (CoroutineInfo c : CoroutineDump.of(thread).coroutines())
 * }</pre>
 *
 * <p>Nothing keeps a coroutine alive for dumps, and nothing is recorded for them while
 * coroutines switch: a dump finds them through what each thread tracks anyway, its ring and
 * its started asymmetric coroutines (held weakly), so an asymmetric coroutine appears once its
 * body has started. Reading a suspended coroutine's stack holds it {@linkplain
 * CoroutineBase.State#BUSY busy} for that moment, as a steal does (see {@link
 * CoroutineBase#getStackTrace()}); nothing else changes.
 *
 * <p>A dump may be taken on any thread. Of the current thread it is exact; of other threads it
 * is what they held at about the time it was read, each coroutine read on its own (as
 * {@link Thread#getAllStackTraces()} reads threads): one that moves between threads meanwhile may
 * be missed or show under its new owner. An instance is immutable.
 *
 * <p>The same dump is reachable from outside the process, through JMX: see {@link CoroutinesMBean}.
 */
public final class CoroutineDump {

    /**
     * The system property that, set to {@code true}, registers the {@link CoroutinesMBean} at
     * the JVM's first coroutine operation (read then, once).
     */
    public static final String MBEAN_PROPERTY = "weft.mbean";

    private final List<CoroutineInfo> coroutines;

    private CoroutineDump(List<CoroutineInfo> coroutines) {
        this.coroutines = List.copyOf(coroutines);
    }

    /**
     * The live coroutines of every thread, thread by thread in the order they first used
     * coroutines; each thread's symmetric ones in ring order, then its asymmetric ones in the
     * order they started. Any thread.
     *
     * @return the dump
     */
    public static CoroutineDump ofAllThreads() {
        return read(CoroutineSupport.all());
    }

    /**
     * The live coroutines that belong to {@code thread}. Any thread.
     *
     * @param thread the owner, not null
     * @return the dump; empty if the thread never used a coroutine
     * @throws NullPointerException if {@code thread} is null
     */
    public static CoroutineDump of(Thread thread) {
        if (thread == null) {
            throw new NullPointerException("thread");
        }
        CoroutineSupport support = CoroutineSupport.of(thread);
        return read(support == null ? List.of() : List.of(support));
    }

    private static CoroutineDump read(List<CoroutineSupport> supports) {
        List<CoroutineInfo> infos = new ArrayList<>();
        Set<CoroutineBase> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (CoroutineSupport support : supports) {
            for (CoroutineBase c : support.snapshot()) {
                if (c.owner() == support && isLive(c) && seen.add(c)) {
                    infos.add(CoroutineInfo.of(c));
                }
            }
        }
        return new CoroutineDump(infos);
    }

    private static boolean isLive(CoroutineBase c) {
        CoroutineBase.State state = c.getState();
        return state != CoroutineBase.State.NEW && state != CoroutineBase.State.FINISHED;
    }

    /**
     * Registers the {@link CoroutinesMBean} in the platform MBean server under
     * {@value CoroutinesMBean#OBJECT_NAME}, creating that server if it does not exist yet; does
     * nothing if it is registered already. Any thread.
     *
     * @return true if this call registered it, false if it was already
     * @throws IllegalStateException if JMX is missing (on the module path, the module
     *         {@code java.management} must be resolved: {@code --add-modules java.management})
     *         or refuses it
     */
    public static boolean registerMBean() {
        try {
            return ManagedCoroutines.register();
        } catch (NoClassDefFoundError missing) {
            throw new IllegalStateException("cannot register " + CoroutinesMBean.OBJECT_NAME + ": JMX is missing"
                    + " (on the module path, add the option --add-modules java.management)", missing);
        }
    }

    /** Called once, as the first thread's support is created: registers the MBean if the system property asks. */
    static void registerMBeanIfAsked() {
        if (!Boolean.getBoolean(MBEAN_PROPERTY)) {
            return;
        }
        try {
            registerMBean();
        } catch (RuntimeException e) {
            System.getLogger(CoroutineDump.class.getName()).log(System.Logger.Level.WARNING,
                    "the system property " + MBEAN_PROPERTY + " asks for the coroutine MBean, which cannot be registered", e);
        }
    }

    /**
     * The coroutines, as they were read.
     *
     * @return an unmodifiable list
     */
    public List<CoroutineInfo> coroutines() {
        return coroutines;
    }

    /** The dump as text: a count, then each coroutine as {@link CoroutineInfo#toString()} has it, a blank line between. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Weft coroutines: ").append(coroutines.size());
        for (CoroutineInfo c : coroutines) {
            text.append(System.lineSeparator()).append(System.lineSeparator()).append(c);
        }
        return text.append(System.lineSeparator()).toString();
    }
}
