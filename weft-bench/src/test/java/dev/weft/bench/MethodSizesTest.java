package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class MethodSizesTest {

    /** Methods of known bytecode sizes. */
    @SuppressWarnings("unused")
    static final class Known {
        private int field;

        Known() { // aload_0, invokespecial (3 bytes), return: 5
        }

        static int one() { // iconst_1, ireturn: 2
            return 1;
        }

        static int one(int unused) { // the same, one overload
            return 1;
        }

        int field() { // aload_0, getfield (3 bytes), ireturn: 5
            return field;
        }

        abstract static class Shape {
            abstract int corners(); // no code
        }
    }

    private static byte[] classFile(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream("/" + type.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void eachMethodsCodeLengthIsReadFromItsClassFile() throws IOException {
        MethodSizes sizes = new MethodSizes();
        sizes.addClass(classFile(Known.class));
        sizes.addClass(classFile(Known.Shape.class));
        String known = "dev/weft/bench/MethodSizesTest$Known";
        assertEquals(2, sizes.largest(known + ".one"));
        assertEquals(5, sizes.largest(known + ".field"));
        assertEquals(5, sizes.largest(known + ".<init>"));
        assertEquals(-1, sizes.largest(known + "$Shape.corners"));
        assertEquals(5, sizes.methods()); // Known's four and Shape's constructor
        assertEquals(2 + 2 + 5 + 5 + 5, sizes.codeBytes());
        assertEquals(0, sizes.over(MethodSizes.MAX_INLINE_SIZE));
        assertEquals(3, sizes.over(2));
    }
}
