package dev.weft.weaver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Which classes a weaving tool weaves, in the one syntax that the agent, the command line and
 * the Maven plugin share.
 *
 * <p>Each entry names a package or a class, in Java's dotted form, with or without a trailing
 * dot:
 * <ul>
 *   <li>{@code com.example.flows} and {@code com.example.flows.} both select the package
 *       {@code com.example.flows} and its subpackages ({@code com.example.flows.io.Reader}), not
 *       {@code com.example.flowsets.Set};
 *   <li>{@code com.example.Main} selects that class and its nested classes
 *       ({@code com.example.Main$Step}).
 * </ul>
 * Slashes are read as dots, so internal names ({@code com/example/flows/}) work too. A selection
 * of no entries selects every class; each tool says whether it accepts one (the agent does not
 * weave without entries).
 *
 * <pre>
 * ClassSelection flows = ClassSelection.parse("com.example.flows, com.example.Main");
 * flows.includes("com.example.flows.io.Reader");   // true
 * flows.includes("com/example/Main$Step");          // true
 * </pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class ClassSelection {

    /** The entries, dotted, without a trailing dot. */
    private final List<String> entries;

    private ClassSelection(List<String> entries) {
        this.entries = entries;
    }

    /**
     * The selection of the given entries; every class if there is none.
     *
     * @param entries package or class names, each with or without a trailing dot
     * @return the selection
     * @throws IllegalArgumentException naming the entry, if one is not a Java name
     */
    public static ClassSelection of(Collection<String> entries) {
        List<String> normalized = new ArrayList<>(entries.size());
        for (String entry : entries) {
            normalized.add(normalize(entry));
        }
        return new ClassSelection(List.copyOf(normalized));
    }

    /**
     * The selection of a comma-separated list of entries, as the agent takes it; blanks around
     * an entry are ignored, and so are empty entries.
     *
     * @param list the entries, such as {@code "com.example.flows,com.example.Main"}; may be null
     * @return the selection; every class if {@code list} is null or blank
     * @throws IllegalArgumentException naming the entry, if one is not a Java name
     */
    public static ClassSelection parse(String list) {
        if (list == null || list.isBlank()) {
            return of(List.of());
        }
        return of(Arrays.stream(list.split(",")).map(String::strip).filter(e -> !e.isEmpty()).toList());
    }

    /**
     * Whether this selection has no entries, and so selects every class.
     *
     * @return true if it selects every class
     */
    public boolean isEverything() {
        return entries.isEmpty();
    }

    /**
     * Whether the class is selected.
     *
     * @param className a binary name ({@code com.example.Main$Step}) or an internal name
     *                  ({@code com/example/Main$Step})
     * @return true if the class is in a selected package or is, or is nested in, a selected class
     */
    public boolean includes(String className) {
        if (entries.isEmpty()) {
            return true;
        }
        String name = className.replace('/', '.');
        for (String entry : entries) {
            if (name.startsWith(entry) && (name.length() == entry.length()
                    || name.charAt(entry.length()) == '.' || name.charAt(entry.length()) == '$')) {
                return true;
            }
        }
        return false;
    }

    /**
     * The entries in their normalized form: dotted, without a trailing dot.
     *
     * @return the entries, in the order given
     */
    public List<String> entries() {
        return entries;
    }

    @Override
    public String toString() {
        return entries.isEmpty() ? "every class" : String.join(", ", entries);
    }

    private static String normalize(String entry) {
        String name = entry.strip().replace('/', '.');
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        boolean valid = !name.isEmpty();
        for (String part : name.split("\\.", -1)) {
            valid &= isIdentifier(part);
        }
        if (!valid) {
            throw new IllegalArgumentException("'" + entry + "' is not a package or class name"
                    + " (expected something like com.example.flows, with or without a trailing dot)");
        }
        return name;
    }

    private static boolean isIdentifier(String part) {
        if (part.isEmpty() || !Character.isJavaIdentifierStart(part.codePointAt(0))) {
            return false;
        }
        return part.codePoints().allMatch(Character::isJavaIdentifierPart);
    }
}
