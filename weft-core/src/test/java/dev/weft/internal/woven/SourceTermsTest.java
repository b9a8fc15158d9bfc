package dev.weft.internal.woven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The texts refusals share: a place as a stack trace element prints it, and how to weave a class. */
class SourceTermsTest {

    @Test
    void aPlaceReadsAsAStackTraceElement() {
        assertEquals("com.example.flows.Counter.run(Counter.java:14)",
                SourceTerms.place("com.example.flows.Counter", "run", "Counter.java", 14));
        assertEquals(new StackTraceElement("a.B", "m", "B.java", 3).toString(), SourceTerms.place("a.B", "m", "B.java", 3));
        assertEquals("a.B.m(B.java)", SourceTerms.place("a.B", "m", "B.java", -1));
        assertEquals("a.B.m(Unknown Source)", SourceTerms.place("a.B", "m", null, -1));
    }

    @Test
    void howToWeaveNamesThePackageForEachTool() {
        assertEquals("weave it with the Maven plugin (<package>com.example.flows</package> in weft-maven-plugin's"
                + " <packages>), the agent (-javaagent:weft-weaver-VERSION-agent.jar=com.example.flows) or the command"
                + " line (java -jar weft-weaver-VERSION-agent.jar --only com.example.flows DIR)",
                SourceTerms.howToWeave("com.example.flows.Counter"));
        assertEquals(true, SourceTerms.howToWeave("Counter").contains("<package>Counter</package>"),
                "a class of the unnamed package is named itself");
        assertEquals("it is JDK code, which is never woven", SourceTerms.howToWeave(java.util.ArrayList.class));
        assertEquals(SourceTerms.howToWeave(SourceTermsTest.class.getName()), SourceTerms.howToWeave(SourceTermsTest.class));
    }

    @Test
    void aMethodOfAClassThatIsNotWovenHasNoLineAndItsLocalsNoNames() throws NoSuchMethodException {
        java.lang.reflect.Method method = SourceTermsTest.class.getDeclaredMethod("aPlaceReadsAsAStackTraceElement");
        assertEquals(SourceTermsTest.class.getName() + ".aPlaceReadsAsAStackTraceElement(Unknown Source)",
                SourceTerms.place(method, 7));
        assertEquals("this", SourceTerms.local(method, 7, 0));
        assertEquals("local slot 1", SourceTerms.local(method, 7, 1));
        assertEquals("stack slot 2", SourceTerms.slot(method, 7, 2, 2));
        assertEquals("bci 7, local slot 0", SourceTerms.slotDetail(method, 7, 2, 0));
        assertEquals("bci 7", SourceTerms.slotDetail(method, 7, 2, 1));
    }
}
