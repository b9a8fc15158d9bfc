package dev.weft;

import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import javax.management.openmbean.ArrayType;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;

/**
 * The {@link CoroutinesMBean}, registered as a standard MBean (its open data goes to the client
 * as it is, where an MXBean would map {@code CompositeData} as a bean): each operation reads a new {@link CoroutineDump}. Stateless; any
 * thread. Only {@link CoroutineDump#registerMBean()} loads it, so that nothing of JMX is loaded
 * before.
 */
final class ManagedCoroutines implements CoroutinesMBean {

    private static final String[] ITEMS = {"name", "kind", "engine", "state", "thread", "threadId", "stackTrace"};
    private static final CompositeType TYPE = compositeType();

    private ManagedCoroutines() {
    }

    /** Registers one in the platform MBean server, unless one is already: whether this call did. */
    static boolean register() {
        try {
            StandardMBean bean = new StandardMBean(new ManagedCoroutines(), CoroutinesMBean.class, false);
            ManagementFactory.getPlatformMBeanServer().registerMBean(bean, objectName());
            return true;
        } catch (InstanceAlreadyExistsException e) {
            return false;
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + CoroutinesMBean.OBJECT_NAME + ": " + e, e);
        }
    }

    static ObjectName objectName() throws MalformedObjectNameException {
        return new ObjectName(CoroutinesMBean.OBJECT_NAME);
    }

    @Override
    public String dump() {
        return CoroutineDump.ofAllThreads().toString();
    }

    @Override
    public CompositeData[] coroutines() {
        List<CoroutineInfo> infos = CoroutineDump.ofAllThreads().coroutines();
        CompositeData[] data = new CompositeData[infos.size()];
        for (int i = 0; i < data.length; i++) {
            data[i] = data(infos.get(i));
        }
        return data;
    }

    @Override
    public int getLiveCount() {
        return CoroutineDump.ofAllThreads().coroutines().size();
    }

    private static CompositeData data(CoroutineInfo c) {
        StackTraceElement[] stack = c.stackTrace();
        String[] frames = new String[stack.length];
        for (int f = 0; f < frames.length; f++) {
            frames[f] = stack[f].toString();
        }
        Object[] values = {c.name(), c.kind().name(), c.engine().name(), c.state().name(), c.owner().getName(),
                c.owner().getId(), frames};
        try {
            return new CompositeDataSupport(TYPE, ITEMS, values);
        } catch (OpenDataException e) {
            throw new AssertionError("the coroutine type does not fit its values", e);
        }
    }

    private static CompositeType compositeType() {
        OpenType<?>[] types;
        try {
            types = new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING, SimpleType.STRING, SimpleType.STRING,
                    SimpleType.STRING, SimpleType.LONG, new ArrayType<String>(1, SimpleType.STRING)};
            return new CompositeType("dev.weft.Coroutine", "a live coroutine", ITEMS, ITEMS, types);
        } catch (OpenDataException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
