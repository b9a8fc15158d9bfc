package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Outputs and point values read back from the store, where their bytes may have been changed:
 * what a step stores reads back, strings and boxed primitives in the compact form and values
 * stored by Java serialization (as every value was before that form) alike; a compact value
 * changed in the store is refused or read as a value of its kind; a graph nested too deep, an array whose stored length is huge,
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

    /** Strings and boxed primitives at the edges of their ranges, each of another class. */
    private static final List<Object> COMPACT_VALUES = List.of("", "Ada", "Zoë paid 12 € in 東京 \uD83D\uDE00", Integer.MIN_VALUE,
            Integer.MAX_VALUE, 0, Long.MIN_VALUE, Long.MAX_VALUE, (short) -1, Short.MAX_VALUE, Byte.MIN_VALUE, (byte) 7,
            Character.MAX_VALUE, 'a', true, false, Float.NaN, -0.0f, Float.MIN_VALUE, Double.NEGATIVE_INFINITY, -0.0,
            Math.PI);

    @Test
    void stringsAndBoxedPrimitivesAreStoredCompactAndReadBackAsTheyWere() throws IOException {
        for (Object value : COMPACT_VALUES) {
            byte[] stored = StateCodec.value(value);
            assertEquals(StateCodec.COMPACT, stored[0], value + " is stored compact");
            Object read = codec.readValue(stored);
            assertEquals(value, read);
            assertEquals(value.getClass(), read.getClass());
        }
        String loneSurrogate = "a\uD800b";
        byte[] stored = StateCodec.value(loneSurrogate);
        assertEquals((byte) 0xAC, stored[0], "a string UTF-8 cannot carry is stored by Java serialization");
        assertEquals(loneSurrogate, codec.readValue(stored));
    }

    @Test
    void valuesStoredByJavaSerializationAsBeforeTheCompactFormReadBack() throws IOException {
        for (Object value : COMPACT_VALUES) {
            Object read = codec.readValue(serialized(value));
            assertEquals(value, read);
            assertEquals(value.getClass(), read.getClass());
        }
    }

    @Test
    void aCompactValueOfAnotherLengthKindOrEncodingIsRefusedSayingWhy() {
        StreamCorruptedException shortInt = assertThrows(StreamCorruptedException.class,
                () -> codec.readValue(new byte[] {StateCodec.COMPACT, StateCodec.KIND_INTEGER, 0, 0, 7}));
        assertEquals("a compact stored value of kind 2 has 3 byte(s), not 4", shortInt.getMessage());
        StreamCorruptedException noKind = assertThrows(StreamCorruptedException.class,
                () -> codec.readValue(new byte[] {StateCodec.COMPACT, 42}));
        assertEquals("a compact stored value has kind 42, which no value has", noKind.getMessage());
        StreamCorruptedException headOnly = assertThrows(StreamCorruptedException.class,
                () -> codec.readValue(new byte[] {StateCodec.COMPACT}));
        assertEquals("a compact stored value of 1 byte(s) has no kind", headOnly.getMessage());
        StreamCorruptedException two = assertThrows(StreamCorruptedException.class,
                () -> codec.readValue(new byte[] {StateCodec.COMPACT, StateCodec.KIND_BOOLEAN, 2}));
        assertEquals("a compact stored Boolean holds 2, not 0 or 1", two.getMessage());
        assertThrows(CharacterCodingException.class,
                () -> codec.readValue(new byte[] {StateCodec.COMPACT, StateCodec.KIND_STRING, 'A', (byte) 0xC3}));
        InvalidObjectException notAMap = assertThrows(InvalidObjectException.class,
                () -> codec.readPointValues(StateCodec.value(7)));
        assertTrue(notAMap.getMessage().contains("java.lang.Integer, not a map of names to values"),
                notAMap.getMessage());
    }

    /**
     * Compact values with bytes changed, cut, added or replaced at random: each is refused with an
     * {@link IOException}, or read as a string or boxed primitive that the same bytes encode.
     */
    @Test
    void compactValuesChangedInTheStoreAreRefusedOrReadAsAValueOfTheirKind() throws IOException {
        Random random = new Random(20261124);
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] stored = mutated(StateCodec.value(COMPACT_VALUES.get(random.nextInt(COMPACT_VALUES.size()))),
                    random);
            Object read;
            try {
                read = codec.readValue(stored);
            } catch (IOException e) {
                refused++;
                continue;
            }
            if (stored.length == 0 || stored[0] != StateCodec.COMPACT) {
                continue; // a Java stream now, read under the limits already tested
            }
            assertTrue(read instanceof String || read instanceof Number || read instanceof Character
                    || read instanceof Boolean, Arrays.toString(stored) + " read as " + read);
            assertArrayEquals(stored, StateCodec.value(read), "the bytes read are the bytes that value is stored as");
        }
        assertTrue(refused > 1_000 && refused < 19_000, refused + " of 20000 refused");
    }

    private static byte[] mutated(byte[] stored, Random random) {
        byte[] bytes = stored.clone();
        switch (random.nextInt(4)) {
            case 0 -> bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
            case 1 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case 2 -> bytes = Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(4));
            default -> bytes[1] = (byte) random.nextInt(12);
        }
        return bytes;
    }
}
