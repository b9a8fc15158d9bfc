package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * How the console shows a stored value ({@link ValueText}): by its content where it is a JDK value
 * or a small JDK collection, by its class and size otherwise, and never by calling the
 * application's code (a class of its own whose {@code toString} or iterator would throw is shown
 * all the same).
 */
class ValueTextTest {

    /** The application's own object, whose methods must not be called. */
    static final class Hostile implements Serializable {
        private static final long serialVersionUID = 1L;
        final String secret = "s";
        int count;

        @Override
        public String toString() {
            throw new AssertionError("toString of the application's code was called");
        }

        @Override
        public int hashCode() {
            throw new AssertionError("hashCode of the application's code was called");
        }

        @Override
        public boolean equals(Object other) {
            throw new AssertionError("equals of the application's code was called");
        }
    }

    /** The application's own list: a JDK collection's subclass, shown by its class. */
    static final class HostileList extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        @Override
        public java.util.Iterator<String> iterator() {
            throw new AssertionError("the application's iterator was called");
        }
    }

    enum Colour { RED }

    @Test
    void jdkValuesAreShownByTheirContent() {
        assertEquals("null", ValueText.of(null));
        assertEquals("42", ValueText.of(42));
        assertEquals("-7", ValueText.of(-7L));
        assertEquals("2.5", ValueText.of(2.5));
        assertEquals("true", ValueText.of(true));
        assertEquals("'x'", ValueText.of('x'));
        assertEquals("'\\''", ValueText.of('\''));
        assertEquals("12.50", ValueText.of(new BigDecimal("12.50")));
        assertEquals("2026-01-01T00:00:00Z", ValueText.of(Instant.parse("2026-01-01T00:00:00Z")));
        assertEquals("PT1H", ValueText.of(Duration.ofHours(1)));
        assertEquals("00000000-0000-0001-0000-000000000002", ValueText.of(new UUID(1, 2)));
        assertEquals(new Date(0).toString(), ValueText.of(new Date(0)));
        assertEquals(ValueTextTest.class.getName() + "$Colour.RED", ValueText.of(Colour.RED));
    }

    @Test
    void stringsAreQuotedEscapedAndCut() {
        assertEquals("\"a \\\"b\\\"\\n\\t\\\\ \\u0001\"", ValueText.of("a \"b\"\n\t\\ \u0001"));
        String longText = "x".repeat(ValueText.MAX_STRING + 5);
        assertEquals("\"" + "x".repeat(ValueText.MAX_STRING) + "\"... (205 characters)", ValueText.of(longText));
    }

    @Test
    void smallJdkCollectionsAreShownElementByElementAndLargeOnesBySize() {
        assertEquals("java.util.ArrayList (2 elements) [\"a\", 1]", ValueText.of(new ArrayList<>(List.of("a", 1))));
        assertEquals("java.util.TreeMap (2 elements) {\"a\"=1, \"b\"=java.util.ArrayList (1 element) [2]}",
                ValueText.of(new TreeMap<>(Map.of("a", 1, "b", new ArrayList<>(List.of(2))))));
        List<Integer> many = new ArrayList<>();
        for (int i = 0; i <= ValueText.MAX_ELEMENTS; i++) {
            many.add(i);
        }
        assertEquals("java.util.ArrayList (11 elements)", ValueText.of(many));
        assertEquals("java.util.ArrayList (1 element) [java.util.ArrayList (1 element) [java.util.ArrayList (1 element)]]",
                ValueText.of(new ArrayList<>(List.of(new ArrayList<>(List.of(new ArrayList<>(List.of(1))))))),
                "two levels deep, then by size");
        assertEquals("int[] {1, 2}", ValueText.of(new int[] {1, 2}));
        assertEquals("long[100]", ValueText.of(new long[100]));
        assertEquals("java.lang.String[] {\"a\", null}", ValueText.of(new String[] {"a", null}));
    }

    @Test
    void theApplicationsObjectsAreShownByClassAndSizeWithoutCallingThem() {
        assertEquals(Hostile.class.getName() + " (2 fields)", ValueText.of(new Hostile()));
        HostileList list = new HostileList();
        list.add("a");
        assertEquals(HostileList.class.getName() + " (" + fieldsOfArrayList() + " fields)", ValueText.of(list),
                "a JDK collection's subclass is the application's: not iterated");
        assertEquals("java.util.ArrayList (1 element) [" + Hostile.class.getName() + " (2 fields)]",
                ValueText.of(new ArrayList<>(List.of(new Hostile()))));
        Object session = new Object();
        assertEquals("java.util.ArrayList (1 element) [(the session's coroutine)]",
                ValueText.of(new ArrayList<>(List.of(session)), session));
    }

    /** The instance fields of ArrayList and its superclasses, as reflection counts them on this JDK. */
    private static int fieldsOfArrayList() {
        int count = 0;
        for (Class<?> c = ArrayList.class; c != Object.class; c = c.getSuperclass()) {
            for (java.lang.reflect.Field field : c.getDeclaredFields()) {
                if (!java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
                    count++;
                }
            }
        }
        return count;
    }
}
