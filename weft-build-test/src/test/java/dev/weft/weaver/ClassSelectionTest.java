package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
}
