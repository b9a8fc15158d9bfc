package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.woven.WovenMethods;
import java.io.IOException;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the build plugin wove of this module's test classes shows reflection no weaving: no
 * public member of Weft's ({@code getMethods()}, {@code getFields()}), no interface of Weft's,
 * and what a class declares of Weft's (twins, the method that marks it) private and synthetic.
 * Engine-independent; the woven classes' behaviour is the contracts'.
 */
class ReflectionOfWovenClassesTest {

    @Test
    void wovenClassesHaveNoPublicMemberOrInterfaceOfWeft() throws Exception {
        List<Class<?>> woven = new ArrayList<>();
        for (String name : testClasses()) {
            Class<?> type = Class.forName(name, false, ReflectionOfWovenClassesTest.class.getClassLoader());
            if (!WovenMethods.isMarked(type)) {
                continue;
            }
            woven.add(type);
            assertNoneOfWeft(name + ".getMethods()", type.getMethods());
            assertNoneOfWeft(name + ".getFields()", type.getFields());
            assertTrue(Arrays.stream(type.getInterfaces()).noneMatch(i -> i.getName().startsWith("dev.weft.internal.")),
                    name + " implements " + Arrays.toString(type.getInterfaces()));
            assertPrivateAndSynthetic(name, type.getDeclaredMethods());
            assertPrivateAndSynthetic(name, type.getDeclaredFields());
        }
        assertTrue(woven.size() > 50, "woven classes: " + woven.size());
        assertTrue(woven.contains(LinkageContract.Filler.class) && woven.contains(Class.forName(
                "dev.weft.contract.linkage.Template")), "the linkage shapes are among them: " + woven);
    }

    @Test
    void theTwinOfAPublicMethodIsPrivateAndSynthetic() throws ClassNotFoundException {
        Class<?> template = Class.forName("dev.weft.contract.linkage.Template");
        Method twin = Arrays.stream(template.getDeclaredMethods())
                .filter(m -> m.getName().equals("render" + WeavingContract.TWIN_SUFFIX)).findFirst().orElseThrow();
        assertEquals(Modifier.PRIVATE, twin.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.PRIVATE));
        assertTrue(twin.isSynthetic());
        assertThrows(NoSuchMethodException.class, () -> template.getMethod(twin.getName(), twin.getParameterTypes()));
    }

    private static void assertNoneOfWeft(String where, Member[] members) {
        for (Member member : members) {
            assertFalse(member.getName().contains("$weft"), where + " lists " + member);
        }
    }

    private static void assertPrivateAndSynthetic(String where, Member[] members) {
        for (Member member : members) {
            if (member.getName().contains("$weft")) {
                assertTrue(Modifier.isPrivate(member.getModifiers()) && member.isSynthetic(),
                        where + " declares " + member + ", not private and synthetic");
            }
        }
    }

    /** The binary names of this module's test classes, of every package. */
    private static List<String> testClasses() throws IOException, URISyntaxException {
        Path root = Path.of(ReflectionOfWovenClassesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".class") && !f.endsWith("module-info.class"))
                    .map(f -> root.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "."))
                    .map(f -> f.substring(0, f.length() - ".class".length()))
                    .sorted()
                    .toList();
        }
    }
}
