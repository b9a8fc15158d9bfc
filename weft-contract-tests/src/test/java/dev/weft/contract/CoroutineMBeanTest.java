package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import dev.weft.CoroutineDump;
import dev.weft.CoroutinesMBean;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;

/**
 * The coroutine dump read from outside the process, as an operator's JMX client reads it: a
 * child JVM ({@link DumpHolderMain}) holds three suspended coroutines and registers the MBean by
 * the system property; this test attaches to it, starts its local management agent (what
 * {@code jcmd PID ManagementAgent.start_local} does), and calls the MBean's operations.
 */
class CoroutineMBeanTest {

    private static final ObjectName NAME = objectName();

    private static ObjectName objectName() {
        try {
            return new ObjectName(CoroutinesMBean.OBJECT_NAME);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anotherProcessReadsTheDumpOfThreeSuspendedCoroutinesThroughJmx() throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "-D" + CoroutineDump.MBEAN_PROPERTY + "=true",
                "-cp", System.getProperty("java.class.path"), DumpHolderMain.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertTrue(ready != null && ready.startsWith("READY "), () -> "the child said: " + ready);
            VirtualMachine vm = VirtualMachine.attach(ready.substring("READY ".length()));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
                assertDump(connector.getMBeanServerConnection());
            }
        } finally {
            child.getOutputStream().close();
            if (!child.waitFor(1, TimeUnit.MINUTES)) {
                child.destroyForcibly();
            }
        }
    }

    private static void assertDump(MBeanServerConnection server) throws Exception {
        assertEquals(3, server.getAttribute(NAME, "LiveCount"));
        CompositeData[] data = (CompositeData[]) server.invoke(NAME, "coroutines", null, null);
        Map<String, CompositeData> byName = new TreeMap<>();
        for (CompositeData c : data) {
            byName.put((String) c.get("name"), c);
        }
        assertEquals(List.of("native deep", "woven deep", "woven spinner"), List.copyOf(byName.keySet()));
        List<String> deep = List.of(DumpContract.place(DumpContract.Deep.class, "inner", "deep-inner"),
                DumpContract.place(DumpContract.Deep.class, "outer", "deep-outer"),
                DumpContract.place(DumpContract.Deep.class, "run", "deep-run"));
        assertCoroutine(byName.get("native deep"), "ASYMMETRIC", "NATIVE", deep);
        assertCoroutine(byName.get("woven deep"), "ASYMMETRIC", "WOVEN", deep);
        assertCoroutine(byName.get("woven spinner"), "SYMMETRIC", "WOVEN",
                List.of(DumpContract.place(DumpContract.Spinner.class, "run", "spinner-yield")));
        String text = (String) server.invoke(NAME, "dump", null, null);
        EngineContract.assertMentions(text, "Weft coroutines: 3", "\"native deep\" asymmetric native suspended, thread \"main\" #",
                "\"woven spinner\" symmetric woven suspended, thread \"main\" #",
                "    at " + DumpContract.place(DumpContract.Spinner.class, "run", "spinner-yield"));
    }

    private static void assertCoroutine(CompositeData c, String kind, String engine, List<String> stack) {
        assertEquals(List.of(kind, engine, "SUSPENDED", "main"),
                List.of(c.get("kind"), c.get("engine"), c.get("state"), c.get("thread")));
        assertEquals(stack, Arrays.stream((String[]) c.get("stackTrace")).map(CoroutineMBeanTest::withoutLoader).toList());
    }

    /** An element's text without the class loader's and module's part, {@code app//} or {@code module@version/}. */
    private static String withoutLoader(String element) {
        return element.substring(element.lastIndexOf('/', element.indexOf('(')) + 1);
    }
}
