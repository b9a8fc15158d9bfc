package dev.weft.internal.frames;

import dev.weft.CoroutineFrame;
import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.SiteTable.Site;
import dev.weft.internal.woven.SourceTerms;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a frame saved at a site of a method's former code resumes in the method's new code, and
 * what it holds there; or why it cannot. The rule, for a method whose code changed:
 * <ol>
 *   <li>the site: the call of the same method ({@code owner.name+descriptor}) that is as many
 *       calls of it into the new code as the saved site was into the former code, when both
 *       codes make as many calls of it (else which one it is cannot be told, and the frame is
 *       refused);</li>
 *   <li>the same monitors held, and the same operand stack below the call, slot for slot, of
 *       the same types ({@link SiteTable} codes), none marked never-null in the new code that
 *       was not in the former;</li>
 *   <li>every local live at the new site has a name, and the former site had a live local of
 *       that name and of the same type (and never null, if the new code says it is never null
 *       there): it takes that local's value. Locals of the former frame that the new code does
 *       not read there are dropped.</li>
 * </ol>
 * So no value the new code reads at the site is one the saved frame did not hold, under the
 * name and type its code gave it. A method whose code did not change keeps the exact rule of
 * its fingerprint, and a class compiled without local variable names ({@code -g:vars}) can
 * only keep that rule: its live locals have no names to match.
 *
 * <p>Stateless; any thread.
 */
public final class SiteMatch {

    private SiteMatch() {
    }

    /**
     * What a frame's stream records of the site it was saved at, to find it again in changed
     * code.
     *
     * @param target the called method, {@code owner.name+descriptor} in internal names
     * @param ordinal how many calls of {@code target} come before it in its method's code
     * @param calls how many calls of {@code target} its method's code makes
     * @param locals the locals' {@link SiteTable} codes at the site, {@link SiteTable#DEAD} for
     *        one its code does not read after it
     * @param names each local's source name, the empty string where it has none (an empty
     *        list where none has one)
     * @param stack the operand stack's codes below the call's arguments, bottom first
     * @param nonNull which slots, locals then stack, hold a reference never null there
     * @param monitors how many monitors the method holds there
     * @param line the call's source line, or {@link SiteTable#NO_LINE}
     */
    public record SavedSite(String target, int ordinal, int calls, List<String> locals, List<String> names,
            List<String> stack, Set<Integer> nonNull, int monitors, int line) {

        public SavedSite {
            locals = List.copyOf(locals);
            names = List.copyOf(names);
            stack = List.copyOf(stack);
            nonNull = Set.copyOf(nonNull);
        }

        /** The record of {@code site}, one of {@code sites}: its method's sites. */
        public static SavedSite of(Site site, Iterable<Site> sites) {
            int ordinal = 0;
            int calls = 0;
            for (Site other : sites) {
                if (other.target().equals(site.target())) {
                    calls++;
                    if (other.bci() < site.bci()) {
                        ordinal++;
                    }
                }
            }
            return new SavedSite(site.target(), ordinal, calls, site.locals(), site.names(), site.stack(), site.nonNull(),
                    site.monitors(), site.line());
        }

        /** The source name of local {@code slot}, or null. */
        String nameOf(int slot) {
            return slot < names.size() && !names.get(slot).isEmpty() ? names.get(slot) : null;
        }
    }

    /** Why a frame cannot resume on its method's new code: the message names the frame, the site and what does not fit. */
    public static final class Mismatch extends Exception {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message);
        }
    }

    /**
     * {@code frame}, saved at {@code saved} in its method's former code, as a frame of the
     * method's new code, whose sites are {@code sites}: at the matching site, each live local
     * holding the value of the former local of its name, the stack as it was.
     *
     * @param sourceFile the source file of the method's class, or null, for messages
     * @throws Mismatch if the new code has no such site or reads a value the frame does not hold
     */
    public static CoroutineFrame match(CoroutineFrame frame, SavedSite saved, Iterable<Site> sites, String sourceFile)
            throws Mismatch {
        String className = frame.method.getDeclaringClass().getName();
        String methodName = frame.method.getName();
        Site site = siteOf(saved, sites, SourceTerms.place(className, methodName, sourceFile, saved.line()));
        String at = SourceTerms.place(className, methodName, sourceFile, site.line());
        if (site.monitors() != saved.monitors()) {
            throw new Mismatch("the call of " + readable(saved.target()) + " at " + at + " holds " + site.monitors()
                    + " monitor(s) in the new code and held " + saved.monitors() + " in the saved frame");
        }
        int stackSize = site.stack().size();
        if (!withoutReceiverMarks(site.stack()).equals(withoutReceiverMarks(saved.stack()))) {
            throw new Mismatch("the operand stack below the call of " + readable(saved.target()) + " at " + at + " is "
                    + site.stack() + " in the new code and was " + saved.stack() + " in the saved frame");
        }
        int newLocals = site.locals().size();
        int oldLocals = saved.locals().size();
        for (int s = 0; s < stackSize; s++) {
            if (site.nonNull().contains(newLocals + s) && !saved.nonNull().contains(oldLocals + s)) {
                throw new Mismatch("stack slot " + s + " below the call of " + readable(saved.target()) + " at " + at
                        + " is never null in the new code, and the saved frame may hold null there");
            }
        }
        long[] scalars = new long[newLocals + stackSize];
        Object[] objects = new Object[newLocals + stackSize];
        Map<String, Integer> formerByName = formerLocals(saved, at);
        for (int slot = 0; slot < newLocals; slot++) {
            String code = site.locals().get(slot);
            if (code.equals(SiteTable.DEAD) || code.equals(SiteTable.SECOND_HALF)) {
                continue;
            }
            int from = formerSlot(site, saved, slot, formerByName, at);
            scalars[slot] = frame.scalarValues[from];
            objects[slot] = frame.objectValues[from];
        }
        System.arraycopy(frame.scalarValues, frame.localCount, scalars, newLocals, stackSize);
        System.arraycopy(frame.objectValues, frame.localCount, objects, newLocals, stackSize);
        return new CoroutineFrame(frame.method, site.bci(), newLocals, stackSize, scalars, objects);
    }

    /** The new code's site that {@code saved} was, found by its call's target and ordinal. */
    private static Site siteOf(SavedSite saved, Iterable<Site> sites, String savedAt) throws Mismatch {
        List<Site> calls = new ArrayList<>();
        for (Site site : sites) {
            if (site.target().equals(saved.target())) {
                calls.add(site);
            }
        }
        calls.sort((a, b) -> Integer.compare(a.bci(), b.bci()));
        if (calls.size() != saved.calls()) {
            throw new Mismatch("the frame saved at " + savedAt + " is suspended in call " + (saved.ordinal() + 1) + " of "
                    + saved.calls() + " of " + readable(saved.target()) + " there, and the new code makes " + calls.size()
                    + ": which one it is cannot be told");
        }
        return calls.get(saved.ordinal());
    }

    /** The former frame's live locals by name; a name given to two live locals is ambiguous and left out. */
    private static Map<String, Integer> formerLocals(SavedSite saved, String at) {
        Map<String, Integer> byName = new HashMap<>();
        for (int slot = 0; slot < saved.locals().size(); slot++) {
            String name = saved.nameOf(slot);
            String code = saved.locals().get(slot);
            if (name != null && !code.equals(SiteTable.DEAD) && !code.equals(SiteTable.SECOND_HALF)) {
                byName.merge(name, slot, (a, b) -> -1);
            }
        }
        return byName;
    }

    /** The former slot whose value new local {@code slot} takes. */
    private static int formerSlot(Site site, SavedSite saved, int slot, Map<String, Integer> formerByName, String at)
            throws Mismatch {
        String name = site.nameOf(slot);
        String code = site.locals().get(slot);
        if (name == null) {
            throw new Mismatch("local slot " + slot + " (" + code + ") is live at " + at
                    + " in the new code and has no name there (compiled without -g or -parameters?): a changed method's"
                    + " frame is matched to its new code by its variables' names");
        }
        Integer from = formerByName.get(name);
        if (from == null) {
            throw new Mismatch("`" + name + "` is live at " + at + " in the new code but not in the saved frame");
        }
        if (from < 0) {
            throw new Mismatch("`" + name + "` names two live locals of the saved frame at " + at
                    + ": which one the new code reads cannot be told");
        }
        String former = saved.locals().get(from);
        if (!former.equals(code)) {
            throw new Mismatch("`" + name + "` is of type " + typeName(code) + " at " + at + " in the new code and was of type "
                    + typeName(former) + " in the saved frame");
        }
        if (site.nonNull().contains(slot) && !saved.nonNull().contains(from)) {
            throw new Mismatch("`" + name + "` is never null at " + at
                    + " in the new code, and the saved frame may hold null in it");
        }
        return from;
    }

    /** The codes, each without the mark that names the local a receiver was loaded from. */
    private static List<String> withoutReceiverMarks(List<String> codes) {
        List<String> plain = new ArrayList<>(codes.size());
        for (String code : codes) {
            int mark = code.indexOf(SiteTable.RECEIVER_IN);
            plain.add(mark > 0 ? code.substring(0, mark) : code);
        }
        return plain;
    }

    /** A slot code as Java names its type: {@code int}, {@code java.lang.String}, {@code long[]}. */
    static String typeName(String code) {
        if (code.isEmpty()) {
            return "(no type)"; // only in hostile bytes: no site has an empty code
        }
        return switch (code.charAt(0)) {
            case 'I' -> "int";
            case 'J' -> "long";
            case 'F' -> "float";
            case 'D' -> "double";
            case 'Z' -> "boolean";
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case SiteTable.BYTE_AND_CHAR -> "byte or char";
            case SiteTable.SHORT_AND_CHAR -> "short or char";
            case '[' -> typeName(code.substring(1)) + "[]";
            case 'L' -> code.length() > 2 && code.endsWith(";") ? code.substring(1, code.length() - 1).replace('/', '.')
                    : code;
            default -> code;
        };
    }

    /** {@code owner.name+descriptor} as {@code owner.name}, dotted. */
    private static String readable(String target) {
        int paren = target.indexOf('(');
        return (paren < 0 ? target : target.substring(0, paren)).replace('/', '.');
    }
}
