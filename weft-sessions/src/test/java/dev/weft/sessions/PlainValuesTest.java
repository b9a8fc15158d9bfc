package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.Serializable;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** What {@link StepContext#suspendingAt} accepts as a point's value: plain JDK data, all the way down. */
class PlainValuesTest {

    /** A value of the application's own class. */
    private record Own(int n) implements Serializable {
    }

    private static final Supplier<String> WHAT = () -> "session s: value 'v' of point 'p'";

    @Test
    void plainJdkValuesPassAtAnyDepth() {
        Map<String, Object> nested = new HashMap<>(Map.of("when", Instant.EPOCH, "amount", new BigDecimal("1.50")));
        nested.put("none", null);
        List<Object> values = List.of("text", 42, 4.5, new int[][] {{1}, {2, 3}}, new String[] {"a"}, DayOfWeek.FRIDAY,
                UUID.randomUUID(), new ArrayList<>(List.of(nested, List.of(1, 2))), new TreeMap<>(Map.of("k", "v")),
                String.class, Map.of());
        for (Object value : values) {
            PlainValues.check(value, WHAT);
        }
        PlainValues.check(null, WHAT);
    }

    @Test
    void aClassOfTheApplicationIsRefusedWhereverItIsAndNamed() {
        List<Object> holders = List.of(new Own(1), List.of("a", new Own(2)), Map.of("k", new ArrayList<>(List.of(new Own(3)))),
                new Own[] {new Own(4)}, new Object[] {"x", new Own[0]}, Own.class);
        for (Object holder : holders) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> PlainValues.check(holder, WHAT));
            assertEquals("session s: value 'v' of point 'p' holds a " + Own.class.getName() + ", which is not a JDK"
                    + " class; a point's values must be plain JDK values (strings, numbers, dates, lists and maps of"
                    + " them), so that a node with other code can read them", refused.getMessage());
        }
    }

    @Test
    void aSerializableLambdaAndAProxyAreRefused() {
        Runnable lambda = (Runnable & Serializable) () -> { };
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> PlainValues.check(lambda, WHAT));
        assertEquals(true, refused.getMessage().contains("holds a " + PlainValuesTest.class.getName() + ", which is not"
                + " a JDK class"), refused.getMessage());
        Object proxy = Proxy.newProxyInstance(PlainValuesTest.class.getClassLoader(), new Class<?>[] {Serializable.class},
                (p, method, args) -> null);
        IllegalArgumentException proxied = assertThrows(IllegalArgumentException.class,
                () -> PlainValues.check(proxy, WHAT));
        assertEquals(true, proxied.getMessage().contains("which is not a JDK class"), proxied.getMessage());
    }

    @Test
    void aValueThatIsNotSerializableIsRefusedWithItsClass() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> PlainValues.check(List.of("a", new Object()), WHAT));
        assertEquals("session s: value 'v' of point 'p' holds a java.lang.Object, which is not serializable",
                refused.getMessage());
    }
}
