package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.woven.WovenMethods;
import dev.weft.weaver.fixtures.SerialForms;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/**
 * A woven class is the same class to Java serialization: a Serializable class without a
 * serialVersionUID of its own keeps the default it had as compiled, so objects pass between
 * woven and unwoven code both ways; classes with nothing to weave are left byte for byte.
 */
class SerialVersionTest {

    private static final String FIXTURES = "dev.weft.weaver.fixtures.";

    @Test
    void everySerializableFixtureKeepsItsDefaultSerialVersionUidWhenWoven() throws ClassNotFoundException {
        WovenLoader woven = new WovenLoader();
        List<String> compared = new ArrayList<>();
        for (String name : WovenClassesTest.fixtureClasses()) {
            Class<?> original = Class.forName(name, false, getClass().getClassLoader());
            ObjectStreamClass unwovenForm = ObjectStreamClass.lookup(original);
            if (unwovenForm == null || original.isEnum() || original.isRecord()) {
                continue;
            }
            ObjectStreamClass wovenForm = ObjectStreamClass.lookup(Class.forName(name, false, woven));
            assertEquals(unwovenForm.getSerialVersionUID(), wovenForm.getSerialVersionUID(), name);
            compared.add(name.substring(FIXTURES.length()));
        }
        assertTrue(compared.containsAll(List.of("SerialForms", "SerialForms$Protected", "SerialForms$Derived",
                "SerialForms$Quiet")), "compared: " + compared);
    }

    @Test
    void theDeclaredValueIsPrivateStaticFinalSyntheticAndOnlyInSerializableClasses() throws Exception {
        WovenLoader woven = new WovenLoader();
        Field declared = woven.loadClass(FIXTURES + "SerialForms").getDeclaredField("serialVersionUID");
        assertEquals(Modifier.PRIVATE | Modifier.STATIC | Modifier.FINAL, declared.getModifiers() & Modifier.fieldModifiers());
        assertTrue(declared.isSynthetic(), "reflection that skips synthetic members sees the fields as compiled");
        Class<?> plain = woven.loadClass(FIXTURES + "SerialForms$Plain");
        assertTrue(isWoven(plain), "Plain is woven");
        assertFalse(List.of(plain.getDeclaredFields()).stream().anyMatch(f -> f.getName().equals("serialVersionUID")),
                "a class that is not Serializable declares none");
    }

    @Test
    void objectsWrittenByUnwovenCodeAreReadByWovenCodeAndTheReverse() throws Exception {
        SerialForms.Derived unwoven = new SerialForms.Derived();
        unwoven.count = 7;
        WovenLoader woven = new WovenLoader();
        Object read = read(write(unwoven), woven);
        assertEquals(woven.loadClass(FIXTURES + "SerialForms$Derived"), read.getClass());
        assertEquals(7, read.getClass().getField("count").getInt(read));

        Object wovenObject = woven.loadClass(FIXTURES + "SerialForms$Derived").getConstructor().newInstance();
        wovenObject.getClass().getField("count").setInt(wovenObject, 9);
        SerialForms.Derived back = (SerialForms.Derived) read(write(wovenObject), getClass().getClassLoader());
        assertEquals(9, back.count);
    }

    @Test
    void annotationTypesAndClassesThatCallNothingAreLeftByteForByte() throws WeavingException {
        Weaver weaver = new Weaver();
        for (String name : List.of("SerialForms$Marked", "SerialForms$Arithmetic", "SerialForms$Quiet")) {
            byte[] original = WovenLoader.original(FIXTURES + name);
            assertSame(original, weaver.weave(original), name);
        }
        byte[] plain = WovenLoader.original(FIXTURES + "SerialForms$Plain");
        assertFalse(java.util.Arrays.equals(plain, weaver.weave(plain)), "a class that calls something is woven");
    }

    @Test
    void theWeaverReadsTheClassAsCompiledNotAsItLeavesIt() throws WeavingException {
        byte[] original = WovenLoader.original(FIXTURES + "SerialForms");
        byte[] copy = original.clone();
        new Weaver().weave(original);
        assertArrayEquals(copy, original, "the class file given is left unchanged");
        ClassNode woven = new ClassNode();
        new ClassReader(new Weaver().weave(original)).accept(woven, 0);
        assertNotNull(woven.fields.stream().filter(f -> f.name.equals("serialVersionUID")).findFirst().orElse(null));
    }

    private static boolean isWoven(Class<?> type) {
        return WovenMethods.isMarked(type);
    }

    private static byte[] write(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    private static Object read(byte[] bytes, ClassLoader loader) throws IOException, ClassNotFoundException {
        try (InputStream in = new ByteArrayInputStream(bytes); ObjectInputStream objects = new ObjectInputStream(in) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws ClassNotFoundException {
                return Class.forName(desc.getName(), false, loader);
            }
        }) {
            return objects.readObject();
        }
    }
}
