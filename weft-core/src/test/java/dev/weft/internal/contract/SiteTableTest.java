package dev.weft.internal.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SiteTableTest {

    private static final SiteTable.Site CALL = new SiteTable.Site(7, "com/example/Flow.ask(Ljava/lang/String;)I",
            List.of("Lcom/example/Flow;", "J", SiteTable.SECOND_HALF, SiteTable.DEAD, "Z"), List.of("C", "Lcom/example/Flow;"), 1,
            SiteTable.Site.INVOKESTATIC, Set.of(0, 6));

    @Test
    void aTableReadsBackAsWritten() {
        List<SiteTable.Method> methods = List.of(
                new SiteTable.Method("run()V", "abc123", List.of(CALL, new SiteTable.Site(12, "A.b()V", List.of(), List.of(), 0, 182, Set.of())),
                        null),
                new SiteTable.Method("<init>()V", "def456", List.of(), "constructors are never woven"));
        String table = SiteTable.write(methods);
        assertTrue(table.startsWith(WeavingContract.tableHeader() + "\n"));
        assertEquals(methods, SiteTable.read(table));
    }

    @Test
    void aSiteNamesItsTarget() {
        assertEquals("com/example/Flow", CALL.targetOwner());
        assertEquals("ask(Ljava/lang/String;)I", CALL.targetKey());
        assertFalse(CALL.isVirtual());
        assertTrue(new SiteTable.Site(1, "A.b()V", List.of(), List.of(), 0, 185, Set.of()).isVirtual());
    }

    @Test
    void neverNullSlotsAreMarkedInTheTextAndReadBackAsASet() {
        String table = SiteTable.write(List.of(new SiteTable.Method("run()V", "h", List.of(CALL), null)));
        assertTrue(table.contains("|!Lcom/example/Flow;,J,-,_,Z|C,!Lcom/example/Flow;|1|184"), table);
        SiteTable.Site read = SiteTable.read(table).get(0).sites().get(0);
        assertEquals(Set.of(0, 6), read.nonNull());
        assertEquals(CALL.locals(), read.locals());
    }

    @Test
    void aReceiverSavedAsALocalIsNamedAfterItsCode() {
        SiteTable.Site walk = new SiteTable.Site(3, "com/example/Walk.walk(I)I", List.of("Lcom/example/Walk;", "I"),
                List.of("J", SiteTable.SECOND_HALF, "Lcom/example/Walk;"), 0, 182, Set.of(0, 4), 0);
        String table = SiteTable.write(List.of(new SiteTable.Method("walk(I)I", "h", List.of(walk), null)));
        assertTrue(table.contains("|!Lcom/example/Walk;,I|J,-,!Lcom/example/Walk;=0|0|182"), table);
        SiteTable.Site read = SiteTable.read(table).get(0).sites().get(0);
        assertEquals(walk, read);
        assertEquals(0, read.receiverLocal());
        assertEquals(-1, CALL.receiverLocal());
    }

    @Test
    void aReceiverLocalThatCannotHoldTheReceiverIsRefused() {
        String header = WeavingContract.tableHeader() + "\n";
        String[] refused = {
            "run()V\th\t7|A.b()V|LA;,I|LA;=1|0|182|-1|", // an int local
            "run()V\th\t7|A.b()V|LA;,_|LA;=1|0|182|-1|", // a dead local
            "run()V\th\t7|A.b()V|LA;|LA;=1|0|182|-1|", // past the locals
            "run()V\th\t7|A.b()V|LA;|LA;=-2|0|182|-1|",
            "run()V\th\t7|A.b()V|LA;|I=0|0|182|-1|", // the receiver's code is no reference of its type
            "run()V\th\t7|A.b()V|LA;|LA;=0|0|184|-1|", // a static call has no receiver
            "run()V\th\t7|A.b()V|LA;||0|182=0|-1|",
            "run()V\th\t7|A.b()V|LA;|LA;=x|0|182|-1|",
        };
        for (String line : refused) {
            assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + line + "\n"), line);
        }
        assertEquals(0, SiteTable.read(header + "run()V\th\t7|A.b()V|LA;|LA;=0|0|182|-1|\n").get(0).sites().get(0)
                .receiverLocal());
    }

    @Test
    void anUnsupportedReasonLosesItsTabsAndNewlines() {
        String table = SiteTable.write(List.of(new SiteTable.Method("m()V", "h", List.of(), "one\ttwo\nthree")));
        assertEquals("one two three", SiteTable.read(table).get(0).unsupported());
    }

    @Test
    void anEmptyTableIsOfTheCurrentFormat() {
        String table = SiteTable.write(List.of());
        assertEquals(String.valueOf(WeavingContract.FORMAT_VERSION), SiteTable.formatOf(table));
        assertEquals(List.of(), SiteTable.read(table));
    }

    @Test
    void anotherFormatIsRefusedWithItsVersion() {
        assertEquals("1", SiteTable.formatOf(WeavingContract.TABLE_HEADER + "1\nrun()V\th\t\n"));
        assertEquals("unknown", SiteTable.formatOf("run()V\th\t\n"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SiteTable.read(WeavingContract.TABLE_HEADER + "1\n"));
        assertTrue(e.getMessage().contains("format 1"), e.getMessage());
    }

    @Test
    void aMalformedLineIsRefused() {
        String header = WeavingContract.tableHeader() + "\n";
        assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + "run()V\n"));
        assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + "run()V\th\t7|A.b()V|I|0\n"));
        assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + "run()V\th\tx|A.b()V|||0|184\n"));
        assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + "run()V\th\t7|A.b()V|||0|184\n"),
                "format 7's six fields");
        assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + "run()V\th\t7|A.b()V|I||0|184|3|a,b\n"),
                "more names than locals");
        assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + "run()V\th\t7|A.b()V|I||0|184|3|x y\n"),
                "a name that is no Java identifier");
        assertThrows(IllegalArgumentException.class, () -> SiteTable.read(header + "run()V\th\t7|A.b()V|I||0|184|x|\n"),
                "a line that is no number");
    }

    @Test
    void aSiteRecordsItsLineAndItsLocalsNamesAndTheHeaderTheSourceFile() {
        SiteTable.Site ask = new SiteTable.Site(23, "com/example/Flows.ask(Ljava/lang/String;)I",
                List.of("Lcom/example/Flows;", SiteTable.DEAD, "Ljava/lang/Thread;", "J", SiteTable.SECOND_HALF),
                List.of("Lcom/example/Flows;"), 0, 182, Set.of(0, 5), 0, 14, List.of("this", "", "worker", "count", ""));
        SiteTable.Site bare = new SiteTable.Site(30, "A.b()V", List.of("I"), List.of(), 0, 184, Set.of());
        String table = SiteTable.write("Flows.java", List.of(new SiteTable.Method("run()V", "h", List.of(ask, bare), null)));
        assertTrue(table.startsWith(WeavingContract.tableHeader() + "\tFlows.java\n"), table);
        assertTrue(table.contains("|!Lcom/example/Flows;=0|0|182|14|this,,worker,count, "), table);
        assertTrue(table.contains("|I||0|184|-1|\n"), table);
        assertEquals("Flows.java", SiteTable.sourceFileOf(table));
        assertEquals(String.valueOf(WeavingContract.FORMAT_VERSION), SiteTable.formatOf(table));
        List<SiteTable.Site> read = SiteTable.read(table).get(0).sites();
        assertEquals(List.of(ask, bare), read);
        assertEquals(14, read.get(0).line());
        assertEquals("worker", read.get(0).nameOf(2));
        assertEquals(null, read.get(0).nameOf(1));
        assertEquals(SiteTable.NO_LINE, read.get(1).line());
        assertEquals(List.of(), read.get(1).names());
        assertEquals(null, read.get(1).nameOf(0));
        assertEquals(null, SiteTable.sourceFileOf(SiteTable.write(List.of())));
    }

    @Test
    void landingsReadBackInTheirOrder() {
        Map<String, Map<Integer, Integer>> landings = new LinkedHashMap<>();
        Map<Integer, Integer> run = new LinkedHashMap<>();
        run.put(40, 7);
        run.put(12, SiteTable.NOT_A_SITE);
        landings.put("run()V", run);
        landings.put("<init>()V", Map.of(3, SiteTable.NOT_A_SITE));
        String table = SiteTable.writeLandings(landings);
        assertEquals("run()V\t40:7,12:-1\n<init>()V\t3:-1\n", table);
        assertEquals(landings, SiteTable.readLandings(table));
        assertEquals(List.copyOf(run.keySet()), List.copyOf(SiteTable.readLandings(table).get("run()V").keySet()));
    }

    @Test
    void aMalformedLandingIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SiteTable.readLandings("run()V\t40\n"));
        assertThrows(IllegalArgumentException.class, () -> SiteTable.readLandings("run()V\n"));
    }

    @Test
    void eachIntWidthHoldsExactlyItsRange() {
        long[][] ranges = {{0, 1}, {0, 127}, {-128, 127}, {0, 32_767}, {-32_768, 32_767}, {0, 65_535},
                {Integer.MIN_VALUE, Integer.MAX_VALUE}};
        for (int k = 0; k < ranges.length; k++) {
            char width = SiteTable.INT_WIDTHS.charAt(k);
            assertTrue(SiteTable.holds(width, ranges[k][0]) && SiteTable.holds(width, ranges[k][1]), width + " holds its ends");
            assertFalse(SiteTable.holds(width, ranges[k][0] - 1) || SiteTable.holds(width, ranges[k][1] + 1),
                    width + " holds nothing past them");
        }
        assertEquals('b', SiteTable.BYTE_AND_CHAR);
        assertEquals('s', SiteTable.SHORT_AND_CHAR);
    }
}
