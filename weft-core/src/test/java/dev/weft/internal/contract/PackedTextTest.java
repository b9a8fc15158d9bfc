package dev.weft.internal.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Woven classes' tables packed into string constants, and what unpacking refuses. */
class PackedTextTest {

    /** A site table's kind of text: type descriptors repeated from site to site. */
    private static String tableLike(int sites) {
        StringBuilder text = new StringBuilder(WeavingContract.tableHeader()).append("\tFlows.java\n");
        for (int i = 0; i < sites; i++) {
            text.append("run(Ljava/lang/String;)I\th").append(i % 97).append('\t').append(i * 7)
                    .append("|com/example/Flows.ask(Ljava/lang/String;)I|!Lcom/example/Flows;,_,Ljava/lang/Thread;|")
                    .append("!Lcom/example/Flows;=0|0|182|").append(14 + i).append("|this,,worker\n");
        }
        return text.toString();
    }

    @Test
    void whatIsPackedUnpacksToTheSameText() {
        Random random = new Random(11);
        StringBuilder unicode = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            unicode.appendCodePoint(random.nextInt(0x2FFFF) % 0xD800); // below the surrogates, any plane-0 character
        }
        for (String text : new String[] {"", "a", "\u0000", "\u00e9t\u00e9 \u65e5\u672c \ud83d\ude00", tableLike(1),
                tableLike(3_000), unicode.toString()}) {
            String packed = PackedText.pack(text);
            assertTrue(PackedText.isPacked(packed));
            assertTrue(packed.chars().skip(1).allMatch(c -> c <= 0x7F), "a character above 127");
            assertEquals(text, PackedText.unpack(packed));
        }
    }

    @Test
    void aTableTakesAFractionOfItsPlainBytesInTheClassFile() throws IOException {
        String table = tableLike(3_000);
        int plain = modifiedUtf8Length(table);
        int packed = modifiedUtf8Length(PackedText.pack(table));
        assertTrue(packed * 10 < plain, () -> packed + " bytes packed, " + plain + " plain");
    }

    private static int modifiedUtf8Length(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int length = 0;
        for (int from = 0; from < text.length(); from += 20_000) {
            bytes.reset();
            new DataOutputStream(bytes).writeUTF(text.substring(from, Math.min(text.length(), from + 20_000)));
            length += bytes.size() - 2;
        }
        return length;
    }

    @Test
    void aPlainTextIsNotPacked() {
        assertFalse(PackedText.isPacked(""));
        assertFalse(PackedText.isPacked(WeavingContract.tableHeader()));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> PackedText.unpack(WeavingContract.tableHeader() + "\n"));
        assertEquals("not a packed text: it does not start with \\u0001", refused.getMessage());
    }

    @Test
    void unpackingRefusesACharacterAbove127() {
        String packed = PackedText.pack(tableLike(2));
        String changed = packed.substring(0, 5) + '\u0080' + packed.substring(6);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> PackedText.unpack(changed));
        assertEquals("not a packed text: character 5 is 128, above 127", refused.getMessage());
    }

    @Test
    void unpackingRefusesATruncatedText() {
        String packed = PackedText.pack(tableLike(50));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> PackedText.unpack(packed.substring(0, packed.length() / 2)));
        assertEquals("not a packed text: its bytes end before the deflated data does", refused.getMessage());
    }

    @Test
    void unpackingRefusesBytesAfterTheDeflatedData() {
        String packed = PackedText.pack(tableLike(50)) + "\u007f\u007f\u007f";
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> PackedText.unpack(packed));
        assertTrue(refused.getMessage().matches("not a packed text: [1-3] byte\\(s\\) follow the deflated data"),
                refused.getMessage());
    }

    @Test
    void everyChangedCharacterIsRefusedOrChangesNothing() {
        String text = tableLike(20);
        String packed = PackedText.pack(text);
        Random random = new Random(7);
        for (int i = 1; i < packed.length(); i++) {
            char other = (char) ((packed.charAt(i) + 1 + random.nextInt(127)) % 128);
            String changed = packed.substring(0, i) + other + packed.substring(i + 1);
            try {
                assertEquals(text, PackedText.unpack(changed), "character " + i + " changed, and a different text came out");
            } catch (IllegalArgumentException refused) {
                assertTrue(refused.getMessage().startsWith("not a packed text: "), refused.getMessage());
            }
        }
    }
}
