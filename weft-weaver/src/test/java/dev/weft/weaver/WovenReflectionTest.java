package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.contract.WeavingContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A woven class is the same class to reflection as compiled: {@code getMethods()},
 * {@code getFields()}, {@code getInterfaces()}, its constructors and its modifiers are the
 * compiled class's, and {@code getDeclaredMethods()} and {@code getDeclaredFields()} the
 * compiled class's plus members that are private and synthetic (twins, the method that marks the
 * class woven, a declared serialVersionUID), so that frameworks that look at public members, or
 * skip synthetic ones, see no weaving. Every fixture class, of every package, each compared with
 * itself as compiled; among them {@code shapes}' interface with default, static and private
 * methods, an abstract generic class, overrides across packages with javac's bridges, inner and
 * nested classes.
 */
class WovenReflectionTest {

    private static final String FIXTURES = "dev.weft.weaver.fixtures";

    @Test
    void everyFixtureShowsReflectionWhatItShowedCompiled() throws ClassNotFoundException {
        WovenLoader woven = new WovenLoader();
        List<String> names = fixtureClassesOfEveryPackage();
        assertTrue(names.contains(FIXTURES + ".shapes.other.Stepper$Inner"), "the shapes are among them: " + names);
        for (String name : names) {
            Class<?> compiled = Class.forName(name, false, WovenReflectionTest.class.getClassLoader());
            Class<?> wovenClass = Class.forName(name, false, woven);
            assertEquals(describe(compiled.getMethods()), describe(wovenClass.getMethods()), name + ".getMethods()");
            assertEquals(describe(compiled.getFields()), describe(wovenClass.getFields()), name + ".getFields()");
            assertEquals(names(compiled.getInterfaces()), names(wovenClass.getInterfaces()), name + ".getInterfaces()");
            assertEquals(describe(compiled.getDeclaredConstructors()), describe(wovenClass.getDeclaredConstructors()),
                    name + ".getDeclaredConstructors()");
            assertEquals(compiled.getModifiers(), wovenClass.getModifiers(), name + ".getModifiers()");
            assertDeclaredDifferOnlyBySynthetics(name, compiled.getDeclaredMethods(), wovenClass.getDeclaredMethods());
            assertDeclaredDifferOnlyBySynthetics(name, compiled.getDeclaredFields(), wovenClass.getDeclaredFields());
        }
    }

    @Test
    void eachShapeHasItsTwinsPrivateAndSynthetic() throws ClassNotFoundException {
        WovenLoader woven = new WovenLoader();
        for (String shape : List.of("shapes.Asking", "shapes.Stepping", "shapes.other.Stepper", "shapes.other.Louder",
                "shapes.other.Stepper$Inner", "shapes.other.Stepper$Nested", "shapes.other.Overrides")) {
            Class<?> type = Class.forName(FIXTURES + "." + shape, false, woven);
            List<Method> twins = Arrays.stream(type.getDeclaredMethods())
                    .filter(m -> m.getName().endsWith(WeavingContract.TWIN_SUFFIX)).toList();
            assertFalse(twins.isEmpty(), shape + " has twins");
            for (Method twin : twins) {
                assertTrue(Modifier.isPrivate(twin.getModifiers()) && twin.isSynthetic(), twin + " is private and synthetic");
            }
            assertTrue(Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(
                    WeavingContract.WOVEN_SITES_METHOD) && m.isSynthetic()), shape + " is marked by a synthetic method");
            assertTrue(Arrays.stream(type.getDeclaredFields()).noneMatch(f -> f.getName().startsWith("$weft")),
                    shape + " declares no field of Weft's");
        }
    }

    /**
     * What {@code compiled} declares, {@code woven} declares; what {@code woven} declares besides
     * is private and synthetic, and named as the weaver names what it adds, or a serialVersionUID.
     */
    private static void assertDeclaredDifferOnlyBySynthetics(String name, Member[] compiled, Member[] woven) {
        List<String> before = describe(compiled);
        List<String> after = describe(woven);
        assertTrue(after.containsAll(before), name + " declares all it declared: " + before + " in " + after);
        for (Member member : woven) {
            if (!before.contains(describe(member))) {
                assertTrue(member.isSynthetic() && Modifier.isPrivate(member.getModifiers()), name + ": " + member
                        + " is added, and not private and synthetic");
                assertTrue(member.getName().contains("$weft") || member.getName().equals("serialVersionUID"),
                        name + ": " + member + " is added, and not by the weaver");
            }
        }
    }

    private static List<String> describe(Member[] members) {
        return Arrays.stream(members).map(WovenReflectionTest::describe).sorted().toList();
    }

    /** A member as a string that does not depend on the loader of its types. */
    private static String describe(Member member) {
        String flags = Modifier.toString(member.getModifiers()) + (member.isSynthetic() ? " synthetic" : "");
        String declaring = member.getDeclaringClass().getName();
        if (member instanceof Field f) {
            return flags + " " + f.getType().getName() + " " + declaring + "." + f.getName();
        }
        Executable e = (Executable) member;
        String result = e instanceof Method m ? m.getReturnType().getName() + (m.isBridge() ? " bridge " : " ") : " ";
        return flags + " " + result + declaring + "." + e.getName() + names(e.getParameterTypes());
    }

    private static List<String> names(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getName).toList();
    }

    /** The binary names of every class compiled from the fixtures package and the packages under it. */
    static List<String> fixtureClassesOfEveryPackage() {
        try {
            Path root = Path.of(WovenReflectionTest.class.getClassLoader().getResource(FIXTURES.replace('.', '/')).toURI());
            Function<Path, String> binaryName = f -> {
                String relative = root.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".");
                return FIXTURES + "." + relative.substring(0, relative.length() - ".class".length());
            };
            List<String> names = new ArrayList<>();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".class")).map(binaryName).sorted().forEach(names::add);
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }
}
