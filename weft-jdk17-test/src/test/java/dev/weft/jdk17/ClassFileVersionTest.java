package dev.weft.jdk17;

import dev.weft.CoroutineBase;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The class files a program on JDK 17 loads: weft-core's and the agent jar's Weft classes are
 * Java 17 (version 61), except the native engine's package, which is Java 21 (65) and which
 * nothing loads before JDK 21; the agent jar's relocated ASM is no newer. Runs on the build's JDK, whatever it is; a jar built for another
 * JDK (a stale one from the local repository, when the module is built without {@code -am})
 * is named.
 */
class ClassFileVersionTest {

    private static final int JAVA_17 = 61;
    private static final int JAVA_21 = 65;
    private static final String NATIVE_ENGINE_PACKAGE = "dev/weft/internal/engine/hotspot/";
    /** Where the agent jar holds ASM, whose class files are as old as ASM makes them. */
    private static final String RELOCATED_ASM = "dev/weft/weaver/internal/asm/";

    @Test
    void weftCoreIsJava17ClassFilesButTheNativeEnginesPackageWhichIsJava21() throws Exception {
        Map<String, Integer> versions = classFileVersions(Path.of(CoroutineBase.class.getProtectionDomain()
                .getCodeSource().getLocation().toURI()));
        assertTrue(versions.containsKey("module-info.class"), "weft-core has no module-info.class: " + versions.keySet());
        assertTrue(versions.containsKey(NATIVE_ENGINE_PACKAGE + "NativeStack.class"), "no native engine: " + versions.keySet());
        assertEquals(Map.of(), wrongVersions(versions), "weft-core's class files whose version is not 61 (65 for "
                + NATIVE_ENGINE_PACKAGE + ")");
    }

    @Test
    void weftSessionsIsJava17ClassFiles() throws Exception {
        Map<String, Integer> versions = classFileVersions(Path.of(dev.weft.sessions.Sessions.class.getProtectionDomain()
                .getCodeSource().getLocation().toURI()));
        assertTrue(versions.containsKey("dev/weft/sessions/SessionStep.class"), "no SessionStep: " + versions.keySet());
        Map<String, Integer> newer = new TreeMap<>(versions);
        newer.values().removeIf(version -> version == JAVA_17);
        assertEquals(Map.of(), newer, "weft-sessions' class files whose version is not 61");
    }

    @Test
    void theAgentJarsWeftClassesAreJava17ClassFilesAndTheRelocatedAsmNoNewer() throws Exception {
        URL agentClass = getClass().getClassLoader().getResource("dev/weft/weaver/WeaverAgent.class");
        assertTrue(agentClass != null && agentClass.getProtocol().equals("jar"),
                "weft-weaver's agent jar is not on the test class path: " + agentClass);
        Path jar = Path.of(((JarURLConnection) agentClass.openConnection()).getJarFileURL().toURI());
        Map<String, Integer> versions = classFileVersions(jar);
        Map<String, Integer> newer = new TreeMap<>(versions);
        newer.values().removeIf(version -> version <= JAVA_17);
        assertEquals(Map.of(), newer, "the class files of " + jar + " that JDK 17 cannot load");
        versions.keySet().removeIf(name -> !name.startsWith("dev/weft/") || name.startsWith(RELOCATED_ASM));
        assertFalse(versions.isEmpty(), "no Weft classes in " + jar);
        assertEquals(Map.of(), wrongVersions(versions), "Weft's class files in " + jar + " whose version is not 61");
    }

    /** The classes among {@code versions} not of the version they must have, with theirs. */
    private static Map<String, Integer> wrongVersions(Map<String, Integer> versions) {
        Map<String, Integer> wrong = new TreeMap<>(versions);
        wrong.entrySet().removeIf(e -> e.getValue() == (e.getKey().startsWith(NATIVE_ENGINE_PACKAGE) ? JAVA_21 : JAVA_17));
        return wrong;
    }

    /** The major version of every class file in {@code location}, a jar or a directory, by its path there. */
    private static Map<String, Integer> classFileVersions(Path location) throws IOException, URISyntaxException {
        Map<String, Integer> versions = new TreeMap<>();
        if (Files.isDirectory(location)) {
            List<Path> files = new ArrayList<>();
            try (Stream<Path> all = Files.walk(location)) {
                all.filter(p -> p.toString().endsWith(".class")).forEach(files::add);
            }
            for (Path file : files) {
                try (InputStream in = Files.newInputStream(file)) {
                    versions.put(location.relativize(file).toString().replace('\\', '/'), majorVersion(in, file.toString()));
                }
            }
            return versions;
        }
        try (JarFile jar = new JarFile(location.toFile())) {
            for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
                if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        versions.put(entry.getName(), majorVersion(in, location + "!/" + entry.getName()));
                    }
                }
            }
        }
        return versions;
    }

    private static int majorVersion(InputStream in, String name) throws IOException {
        DataInputStream data = new DataInputStream(in);
        assertEquals(0xCAFEBABE, data.readInt(), name + " is not a class file");
        data.readUnsignedShort(); // minor version
        return data.readUnsignedShort();
    }
}
