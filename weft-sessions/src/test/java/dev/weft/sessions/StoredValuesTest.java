package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Outputs and point values read back from the store, where their bytes may have been changed:
 * what a step stores reads back; a graph nested too deep, an array whose stored length is huge,
 * a point value of a class outside the JDK, or values that are not a map of names, are refused
 * with the documented exceptions, at once, never with an {@code Error}.
 */
class StoredValuesTest {

    private final StateCodec codec = new StateCodec(StoredValuesTest.class.getClassLoader());

    /** An application's output class: outputs may be any serializable class. */
    record Receipt(String name, int cents) implements Serializable {
    }

    private static byte[] serialized(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    @Test
    void whatAStepStoresReadsBack() throws IOException {
        assertEquals(new Receipt("Ada", 1250), codec.readValue(StateCodec.value(new Receipt("Ada", 1250))));
        Map<String, Object> values = Map.of("name", "Ada", "ages", List.of(36, 37));
        assertEquals(values, codec.readPointValues(StateCodec.value(new java.util.HashMap<>(values))));
        assertEquals(Map.of(), codec.readPointValues(null));
    }

    @Test
    void aGraphNestedDeeperThanAnyStepStoresIsRefused() throws IOException {
        List<Object> nested = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            List<Object> outer = new ArrayList<>();
            outer.add(nested);
            nested = outer;
        }
        byte[] bytes = serialized(nested);
        assertThrows(InvalidClassException.class, () -> codec.readValue(bytes));
        assertThrows(InvalidClassException.class, () -> codec.readPointValues(bytes));
    }

    @Test
    void anArrayWhoseStoredLengthIsHugeIsRefusedBeforeItIsAllocated() throws IOException {
        byte[] bytes = serialized(new long[] {7});
        int length = indexOfInt(bytes, 1);
        ByteBuffer.wrap(bytes).putInt(length, Integer.MAX_VALUE);
        assertThrows(InvalidClassException.class, () -> codec.readValue(bytes));
    }

    private static int indexOfInt(byte[] bytes, int value) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        for (int i = bytes.length - 12; i >= 0; i--) { // the length precedes the array's one long
            if (buffer.getInt(i) == value && buffer.getLong(i + 4) == 7) {
                return i;
            }
        }
        throw new AssertionError("no array length in the stream");
    }

    @Test
    void aPointValueOfAClassOutsideTheJdkIsRefused() throws IOException {
        byte[] bytes = serialized(new java.util.HashMap<>(Map.of("receipt", new Receipt("Ada", 1))));
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> codec.readPointValues(bytes));
        assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
    }

    @Test
    void pointValuesThatAreNotAMapOfNamesAreRefused() throws IOException {
        InvalidObjectException notAMap = assertThrows(InvalidObjectException.class,
                () -> codec.readPointValues(serialized(new ArrayList<>(List.of("Ada")))));
        assertTrue(notAMap.getMessage().contains("java.util.ArrayList, not a map of names to values"), notAMap.getMessage());
        assertThrows(InvalidObjectException.class,
                () -> codec.readPointValues(serialized(new java.util.HashMap<>(Map.of(1, "Ada")))));
    }
}
