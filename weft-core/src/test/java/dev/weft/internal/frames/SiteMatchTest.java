package dev.weft.internal.frames;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.CoroutineFrame;
import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.SiteTable.Site;
import dev.weft.internal.frames.SiteMatch.Mismatch;
import dev.weft.internal.frames.SiteMatch.SavedSite;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The rule by which a frame saved at a site of a method's former code resumes in its new code
 * (issue 36): the same call found by its target and ordinal, the same stack and monitors, and
 * every local the new code reads there held by the saved frame under the same name and type.
 */
class SiteMatchTest {

    private static final String ASK = "com/example/Flows.ask(Ljava/lang/String;)I";
    private static final String LOG = "com/example/Log.line(Ljava/lang/String;)V";
    private static final String FLOWS = "Lcom/example/Flows;";
    private static final String STRING = "Ljava/lang/String;";
    private static final String SOURCE = "Flows.java";

    /** The method the frames are of. */
    static final class Flows {
        void run() {
        }
    }

    /** Where line {@code line} of {@link Flows#run} is, as messages name it. */
    private static String at(int line) {
        return Flows.class.getName() + ".run(Flows.java:" + line + ")";
    }
    private static final int INVOKEVIRTUAL = 182;

    /** A site of {@code target} at {@code bci}, line {@code line}, with the locals' codes and names given. */
    private static Site site(int bci, String target, int line, List<String> locals, List<String> names) {
        return new Site(bci, target, locals, List.of(), 0, INVOKEVIRTUAL, Set.of(), -1, line, names);
    }

    /** The former code: {@code this}, {@code name} (a String) and {@code count} (an int) live at its one call of ask, line 14. */
    private static final Site FORMER_ASK = site(23, ASK, 14, List.of(FLOWS, STRING, "I"), List.of("this", "name", "count"));
    private static final List<Site> FORMER = List.of(site(5, LOG, 12, List.of(FLOWS, STRING, SiteTable.DEAD),
            List.of("this", "name", "")), FORMER_ASK);

    private static final Object SELF = new Object();

    /** A frame saved at the former code's call of ask: this, "ada", 7. */
    private static CoroutineFrame savedFrame() throws NoSuchMethodException {
        Method method = Flows.class.getDeclaredMethod("run");
        return new CoroutineFrame(method, 23, 3, 0, new long[] {0, 0, 7}, new Object[] {SELF, "ada", null});
    }

    private static CoroutineFrame matched(List<Site> newCode) throws Exception {
        return SiteMatch.match(savedFrame(), SavedSite.of(FORMER_ASK, FORMER), newCode, SOURCE);
    }

    private static String refusal(List<Site> newCode) {
        return assertThrows(Mismatch.class, () -> matched(newCode)).getMessage();
    }

    @Test
    void theSavedSiteRecordsItsCallsOrdinalAmongTheMethodsCallsOfTheSameMethod() {
        SavedSite saved = SavedSite.of(FORMER_ASK, List.of(site(40, ASK, 20, List.of(), List.of()), FORMER_ASK,
                site(2, ASK, 11, List.of(), List.of())));
        assertEquals(1, saved.ordinal());
        assertEquals(3, saved.calls());
    }

    @Test
    void anUnchangedSiteResumesWithTheSameValues() throws Exception {
        CoroutineFrame frame = matched(FORMER);
        assertEquals(23, frame.bci);
        assertArrayEquals(new Object[] {SELF, "ada", null}, frame.objectValues);
        assertArrayEquals(new long[] {0, 0, 7}, frame.scalarValues);
    }

    @Test
    void linesAddedBeforeTheSiteMoveItAndItsFrameWithIt() throws Exception {
        List<Site> newCode = List.of(site(5, LOG, 12, List.of(FLOWS, STRING, SiteTable.DEAD), List.of("this", "name", "")),
                site(9, LOG, 13, List.of(FLOWS, STRING, SiteTable.DEAD), List.of("this", "name", "")),
                site(31, ASK, 16, List.of(FLOWS, STRING, "I"), List.of("this", "name", "count")));
        CoroutineFrame frame = matched(newCode);
        assertEquals(31, frame.bci);
        assertArrayEquals(new Object[] {SELF, "ada", null}, frame.objectValues);
        assertArrayEquals(new long[] {0, 0, 7}, frame.scalarValues);
    }

    @Test
    void aLocalTheNewCodeNoLongerReadsIsDroppedAndOneInAnotherSlotIsMoved() throws Exception {
        List<Site> newCode = List.of(site(23, ASK, 14, List.of(FLOWS, SiteTable.DEAD, SiteTable.DEAD, STRING),
                List.of("this", "", "", "name")));
        CoroutineFrame frame = matched(newCode);
        assertEquals(4, frame.localCount);
        assertArrayEquals(new Object[] {SELF, null, null, "ada"}, frame.objectValues);
        assertArrayEquals(new long[] {0, 0, 0, 0}, frame.scalarValues);
    }

    @Test
    void aLocalLiveInTheNewCodeButNotInTheSavedFrameIsRefusedByName() {
        List<Site> newCode = List.of(site(23, ASK, 15, List.of(FLOWS, STRING, "I", "J"), List.of("this", "name", "count", "total")));
        assertEquals("`total` is live at " + at(15) + " in the new code but not in the saved"
                + " frame", refusal(newCode));
    }

    @Test
    void aLocalWhoseTypeChangedIsRefused() {
        List<Site> newCode = List.of(site(23, ASK, 14, List.of(FLOWS, STRING, "J", SiteTable.SECOND_HALF),
                List.of("this", "name", "count", "")));
        assertEquals("`count` is of type long at " + at(14) + " in the new code and was of"
                + " type int in the saved frame", refusal(newCode));
    }

    @Test
    void aLocalThatWasDeadInTheSavedFrameIsNotHeldThere() {
        Site formerLog = FORMER.get(0);
        SavedSite saved = SavedSite.of(formerLog, FORMER);
        List<Site> newCode = List.of(site(5, LOG, 12, List.of(FLOWS, STRING, "I"), List.of("this", "name", "count")), FORMER_ASK);
        CoroutineFrame frame = new CoroutineFrame(savedFrameMethod(), 5, 3, 0, new long[3], new Object[] {SELF, "ada", null});
        Mismatch refused = assertThrows(Mismatch.class, () -> SiteMatch.match(frame, saved, newCode, SOURCE));
        assertEquals("`count` is live at " + at(12) + " in the new code but not in the saved"
                + " frame", refused.getMessage());
    }

    private static Method savedFrameMethod() {
        try {
            return Flows.class.getDeclaredMethod("run");
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aCallMadeOnceMoreCannotBeToldApart() {
        List<Site> newCode = List.of(site(5, ASK, 12, List.of(FLOWS, STRING, "I"), List.of("this", "name", "count")), FORMER_ASK);
        assertEquals("the frame saved at " + at(14) + " is suspended in call 1 of 1 of com.example.Flows.ask there, and the new"
                + " code makes 2: which one it is cannot be told", refusal(newCode));
    }

    @Test
    void aCallNoLongerMadeIsRefused() {
        assertEquals("the frame saved at " + at(14) + " is suspended in call 1 of 1 of com.example.Flows.ask there, and the new"
                + " code makes 0: which one it is cannot be told", refusal(List.of(FORMER.get(0))));
    }

    @Test
    void anotherOperandStackIsRefused() {
        Site withStack = new Site(23, ASK, List.of(FLOWS, STRING, "I"), List.of("I"), 0, INVOKEVIRTUAL, Set.of(), -1, 14,
                List.of("this", "name", "count"));
        assertEquals("the operand stack below the call of com.example.Flows.ask at " + at(14) + " is [I] in the new code and"
                + " was [] in the saved frame", refusal(List.of(withStack)));
    }

    @Test
    void anotherMonitorCountIsRefused() {
        Site inMonitor = new Site(23, ASK, List.of(FLOWS, STRING, "I"), List.of(), 1, INVOKEVIRTUAL, Set.of(), -1, 14,
                List.of("this", "name", "count"));
        assertEquals("the call of com.example.Flows.ask at " + at(14) + " holds 1 monitor(s)"
                + " in the new code and held 0 in the saved frame", refusal(List.of(inMonitor)));
    }

    @Test
    void aLocalWithoutANameInTheNewCodeIsRefused() {
        List<Site> newCode = List.of(site(23, ASK, 14, List.of(FLOWS, STRING, "I"), List.of()));
        assertEquals("local slot 0 (" + FLOWS + ") is live at " + at(14) + " in the new code"
                + " and has no name there (compiled without -g or -parameters?): a changed method's frame is matched to its new"
                + " code by its variables' names", refusal(newCode));
    }

    @Test
    void aLocalNeverNullInTheNewCodeMustHaveBeenSoInTheSavedFrame() {
        Site nonNullName = new Site(23, ASK, List.of(FLOWS, STRING, "I"), List.of(), 0, INVOKEVIRTUAL, Set.of(1), -1, 14,
                List.of("this", "name", "count"));
        assertEquals("`name` is never null at " + at(14) + " in the new code, and the saved"
                + " frame may hold null in it", refusal(List.of(nonNullName)));
    }

    @Test
    void aNameGivenToTwoLiveLocalsOfTheSavedFrameIsAmbiguous() throws Exception {
        Site twice = site(23, ASK, 14, List.of(FLOWS, STRING, STRING), List.of("this", "name", "name"));
        CoroutineFrame frame = new CoroutineFrame(savedFrameMethod(), 23, 3, 0, new long[3], new Object[] {SELF, "a", "b"});
        Mismatch refused = assertThrows(Mismatch.class, () -> SiteMatch.match(frame, SavedSite.of(twice, List.of(twice)),
                List.of(twice), SOURCE));
        assertEquals("`name` names two live locals of the saved frame at " + at(14) + ":"
                + " which one the new code reads cannot be told", refused.getMessage());
    }

    @Test
    void typesReadAsJavaNamesThem() {
        assertEquals("int", SiteMatch.typeName("I"));
        assertEquals("java.lang.String[][]", SiteMatch.typeName("[[Ljava/lang/String;"));
        assertEquals("byte or char", SiteMatch.typeName(String.valueOf(SiteTable.BYTE_AND_CHAR)));
        assertEquals("(no type)", SiteMatch.typeName(""), "hostile bytes: named, never an exception");
        assertEquals("(no type)[]", SiteMatch.typeName("["));
        assertEquals("L", SiteMatch.typeName("L"));
        assertEquals("Lx", SiteMatch.typeName("Lx"));
    }
}
