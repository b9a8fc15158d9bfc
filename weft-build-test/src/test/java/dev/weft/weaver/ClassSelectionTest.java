package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one syntax of the agent, the command line and the plugin for the classes to weave. */
class ClassSelectionTest {

    @ParameterizedTest
    @ValueSource(strings = {"com.example.flows", "com.example.flows.", "com/example/flows/", " com.example.flows "})
    void aPackageWithOrWithoutATrailingDotSelectsItAndItsSubpackages(String entry) {
        ClassSelection selection = ClassSelection.of(List.of(entry));
        assertEquals(List.of("com.example.flows"), selection.entries());
        assertTrue(selection.includes("com.example.flows.Session"));
        assertTrue(selection.includes("com.example.flows.io.Reader$Line"));
        assertTrue(selection.includes("com/example/flows/io/Reader"), "internal names, as the agent sees them");
        assertFalse(selection.includes("com.example.flowsets.Set"), "a longer package is another package");
        assertFalse(selection.includes("com.example.Main"));
    }

    @Test
    void aClassSelectsItselfAndItsNestedClassesOnly() {
        ClassSelection selection = ClassSelection.of(List.of("com.example.Main"));
        assertTrue(selection.includes("com.example.Main"));
        assertTrue(selection.includes("com.example.Main$Step"));
        assertFalse(selection.includes("com.example.MainFrame"));
    }

    @Test
    void theAgentsCommaSeparatedListIgnoresBlanksAndEmptyEntries() {
        ClassSelection selection = ClassSelection.parse(" com.example.app, ,com.example.flows.,");
        assertEquals(List.of("com.example.app", "com.example.flows"), selection.entries());
        assertTrue(ClassSelection.parse(null).isEverything());
        assertTrue(ClassSelection.parse("  ").isEverything());
    }

    @Test
    void noEntriesSelectEveryClass() {
        ClassSelection everything = ClassSelection.of(List.of());
        assertTrue(everything.isEverything());
        assertTrue(everything.includes("any.Thing"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "com..example", ".com.example", "com.example.*", "com.1example", "com example"})
    void anEntryThatIsNoJavaNameIsRefusedByName(String entry) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClassSelection.of(List.of(entry)));
        assertTrue(e.getMessage().startsWith("'" + entry + "' is not a package or class name"), e.getMessage());
    }

    @Test
    void unmatchedNamesTheEntriesThatSelectNoneOfTheClassesInTheOrderGivenOnce() {
        ClassSelection selection = ClassSelection.parse("com.exmple.flows, com.example.flows, com.example.Main,"
                + " com.example.Mai, com.example, com.exmple.flows.");
        List<String> classes = List.of("com/example/flows/Session", "com.example.Main$Step", "com.example.MainFrame");
        assertEquals(List.of("com.exmple.flows", "com.example.Mai"), selection.unmatched(classes));
        assertEquals(List.of("com.exmple.flows", "com.example.flows", "com.example.Main", "com.example.Mai", "com.example"),
                selection.unmatched(List.of()));
    }

    @Test
    void aSelectionOfEveryClassHasNoUnmatchedEntry() {
        ClassSelection everything = ClassSelection.of(List.of());
        assertEquals(List.of(), everything.unmatched(List.of()));
        ClassSelection.Matches matches = everything.matches();
        assertTrue(matches.includes("any.Thing"));
        assertEquals(List.of(), matches.unmatched());
    }

    @Test
    void matchesRecordsEveryEntryThatSelectsAClassAsItAnswersIncludes() {
        ClassSelection.Matches matches = ClassSelection.parse("com.example, com.example.flows, com.other").matches();
        assertEquals(List.of("com.example", "com.example.flows", "com.other"), matches.unmatched());
        assertFalse(matches.includes("com.examples.Thing"));
        assertTrue(matches.includes("com/example/flows/Session"), "selected by two entries");
        assertEquals(List.of("com.other"), matches.unmatched());
        assertTrue(matches.includes("com.example.flows.Session"), "again");
        assertEquals(List.of("com.other"), matches.unmatched());
    }

    /** Threads record classes at once, as the agent's transformer does when classes load in parallel. */
    @Test
    void matchesIsSafeForManyThreadsAtOnce() throws Exception {
        List<String> entries = IntStream.range(0, 200).mapToObj(i -> "p" + i).toList();
        ClassSelection.Matches matches = ClassSelection.of(entries).matches();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Void>> done = IntStream.range(0, 4).mapToObj(t -> threads.<Void>submit(() -> {
                start.await();
                for (int i = t; i < 199; i += 4) {
                    assertTrue(matches.includes("p" + i + ".C"));
                }
                return null;
            })).toList();
            start.countDown();
            for (Future<Void> thread : done) {
                thread.get();
            }
        } finally {
            threads.shutdown();
        }
        assertEquals(List.of("p199"), matches.unmatched());
    }

    @Test
    void nearNameOffersAPackageOrClassThatDiffersOnlyInCaseOrByAtMostTwoEdits() {
        List<String> classes = List.of("com/example/flows/Session", "com.example.Main$Step", "org.other.Thing");
        assertEquals(Optional.of("com.example.flows"), ClassSelection.nearName("com.exmple.flows", classes));
        assertEquals(Optional.of("com.example.flows"), ClassSelection.nearName("com.example.flow", classes));
        assertEquals(Optional.of("com.example.flows"), ClassSelection.nearName("com.example.flowsss", classes));
        assertEquals(Optional.of("com.example.Main"), ClassSelection.nearName("COM.EXAMPLE.MAIN", classes), "case first");
        assertEquals(Optional.of("com.example.Main$Step"), ClassSelection.nearName("com.example.Main$Stpe", classes));
        assertEquals(Optional.of("com.example.flows.Session"), ClassSelection.nearName("com.example.flows.Sesion", classes));
        assertEquals(Optional.empty(), ClassSelection.nearName("com.example.fl", classes), "three edits");
        assertEquals(Optional.empty(), ClassSelection.nearName("net.elsewhere", classes));
        assertEquals(Optional.empty(), ClassSelection.nearName("com.exmple.flows", List.of()));
    }

    @Test
    void nearNamePrefersCaseThenFewerEditsThenTheAlphabet() {
        assertEquals(Optional.of("com.Flows"), ClassSelection.nearName("com.flows", List.of("com.flow.A", "com.Flows.B")));
        assertEquals(Optional.of("com.flow"), ClassSelection.nearName("com.flo", List.of("com.flowz.A", "com.flow.B")));
        assertEquals(Optional.of("com.flob"), ClassSelection.nearName("com.flo", List.of("com.flox.A", "com.flob.B")));
    }
}
