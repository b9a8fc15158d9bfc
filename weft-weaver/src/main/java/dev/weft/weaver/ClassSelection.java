package dev.weft.weaver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

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
 * <p>An entry that selects no class is most likely a typo, and each tool says so:
 * {@link #unmatched} names such entries among a known set of classes, {@link Matches} among the
 * classes seen so far, and {@link #nearName} offers a name that is there for a "did you mean".
 *
 * <p>Immutable and thread-safe.
 */
public final class ClassSelection {

    /** The most edits by which {@link #nearName} finds a name near an entry. */
    private static final int NEAR = 2;

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
            if (selects(entry, name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The entries that select none of the given classes: with the classes of a directory, the
     * entries that would weave nothing there.
     *
     * @param classNames binary or internal names, as for {@link #includes}
     * @return the entries that select none of them, normalized, in the order given, each once;
     *         empty for a selection of every class
     */
    public List<String> unmatched(Collection<String> classNames) {
        Matches matches = matches();
        classNames.forEach(matches::includes);
        return matches.unmatched();
    }

    /**
     * A tracker of which entries have selected a class so far, for a tool that sees classes one
     * at a time (the agent, as they load).
     *
     * @return a new tracker, with no class seen
     */
    public Matches matches() {
        return new Matches(this);
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

    /**
     * A package or class among the given classes whose name is near {@code entry} but not it,
     * for a "did you mean": the same but for case, else the one fewest edits away, at most two
     * (ties to the first in alphabetical order). The names looked at are each class's, its
     * enclosing classes' and its packages'.
     *
     * @param entry      an entry, as {@link #entries} gives it
     * @param classNames binary or internal names
     * @return the nearest name, if one is near enough
     */
    public static Optional<String> nearName(String entry, Collection<String> classNames) {
        Set<String> names = new TreeSet<>();
        for (String className : classNames) {
            String name = className.replace('/', '.');
            for (int i = 0; i < name.length(); i++) {
                if (name.charAt(i) == '.' || name.charAt(i) == '$') {
                    names.add(name.substring(0, i));
                }
            }
            names.add(name);
        }
        names.remove(entry);
        return names.stream()
                .filter(name -> Math.abs(name.length() - entry.length()) <= NEAR)
                .filter(name -> nearness(entry, name) <= NEAR + 1)
                .min(Comparator.comparingInt(name -> nearness(entry, name)));
    }

    /** 0 for a name that differs from the entry only in case, else 1 more than the edits between them. */
    private static int nearness(String entry, String name) {
        return name.equalsIgnoreCase(entry) ? 0 : 1 + distance(entry, name);
    }

    /** Whether {@code entry} selects the class of the dotted {@code name}. */
    private static boolean selects(String entry, String name) {
        return name.startsWith(entry) && (name.length() == entry.length()
                || name.charAt(entry.length()) == '.' || name.charAt(entry.length()) == '$');
    }

    /** The Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
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

    /**
     * Which entries of a selection have selected a class so far: {@link #includes} answers as
     * {@link ClassSelection#includes} does and records the entries that select the class;
     * {@link #unmatched} names the others.
     *
     * <pre>
     * ClassSelection.Matches matches = selection.matches();
     * // as classes come: if (matches.includes(className)) weave(...)
     * // at the end:      matches.unmatched().forEach(entry -&gt; warn(entry))
     * </pre>
     *
     * <p>Thread-safe: any thread may call either method at any time. A class recorded by
     * {@code includes} happens-before {@code unmatched} leaves out the entries that select it.
     */
    public static final class Matches {

        private final ClassSelection selection;
        /** The entries that have selected a class; only grows. */
        private final Set<String> matched = ConcurrentHashMap.newKeySet();

        private Matches(ClassSelection selection) {
            this.selection = selection;
        }

        /**
         * Whether the selection includes the class; if it does, the entries that select it
         * count as matched from now on.
         *
         * @param className a binary or internal name, as for {@link ClassSelection#includes}
         * @return true if the class is selected
         */
        public boolean includes(String className) {
            if (selection.isEverything()) {
                return true;
            }
            String name = className.replace('/', '.');
            boolean included = false;
            for (String entry : selection.entries) {
                if (selects(entry, name)) {
                    included = true;
                    if (!matched.contains(entry)) {
                        matched.add(entry);
                    }
                }
            }
            return included;
        }

        /**
         * The entries that have selected no class so far.
         *
         * @return the entries, normalized, in the order given, each once; empty for a selection
         *         of every class
         */
        public List<String> unmatched() {
            return selection.entries.stream().filter(entry -> !matched.contains(entry)).distinct().toList();
        }
    }
}
