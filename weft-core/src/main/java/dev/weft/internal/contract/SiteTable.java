package dev.weft.internal.contract;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two tables a woven class hands the runtime, written by the weaver and read by the runtime
 * with this one codec.
 *
 * <p><b>The site table</b> ({@link #write(String, List)}, {@link #read(String)}): a header line,
 * {@link WeavingContract#TABLE_HEADER} and {@link WeavingContract#FORMAT_VERSION}, then, after a
 * tab, the class's source file as its {@code SourceFile} attribute names it, if it has one
 * ({@link #sourceFileOf(String)}):
 * <pre>
 *     weft-sites 8 [TAB File.java]
 * </pre>
 * then one line per method the weaver looked at:
 * <pre>
 *     name+descriptor TAB hash TAB site SPACE site ... [TAB reason]
 * </pre>
 * the reason saying why the method was left unwoven (constructors that call what may suspend are
 * listed so). A bridge method that the weaver passes through has, instead of sites, the method
 * it bridges to, after {@link #BRIDGES_TO}:
 * <pre>
 *     name+descriptor TAB hash TAB &gt;name+descriptor
 * </pre> Each site is {@code bci|owner.name+descriptor|locals|stack|monitors|opcode|line|names}: the
 * call's site id and target; one code per local and per saved stack slot, bottom first,
 * separated by {@code ,} ({@link #DEAD} for a local not read after the call, {@link #SECOND_HALF}
 * for the second slot of a long or double, else the slot's type descriptor, an int-like slot
 * with its width, one of {@link #INT_WIDTHS}, and a reference that is never null there marked
 * with a leading {@link #NON_NULL}); how many monitors the method holds there; the call's opcode (JVM
 * specification 6.5); the source line in effect at the call, as the {@code LineNumberTable} maps
 * its bytecode index, or {@link #NO_LINE}; and the source names of the locals, one per local code
 * and separated by {@code ,} as they are, each the name a {@code LocalVariableTable} entry that
 * covers the call gives the slot, or empty where none does (the whole field empty where no
 * local has a name). A name is a Java identifier, so it never holds a separator; a slot whose
 * name is not one (a synthetic variable of another language) has none here. That slot 0 of an
 * instance method is {@code this} is the runtime's rule, not an entry. For example
 * <pre>
 *     23|com/example/Flows.ask(Ljava/lang/String;)I|!Lcom/example/Flows;,_,Ljava/lang/Thread;|!Lcom/example/Flows;=0|0|182|14|this,,worker
 * </pre> The receiver's code, the last of the stack, may end in
 * {@link #RECEIVER_IN} and a local's index: the receiver was loaded from that local, which
 * still holds it and is saved, so that twins save it once ({@link Site#receiverLocal}).
 *
 * <p><b>The landing table</b> ({@link #writeLandings(Map)}, {@link #readLandings(String)}): one
 * line per method, {@code name+descriptor TAB wovenBci:bci,...}, where each call of the woven
 * code lands and the site it is ({@link #NOT_A_SITE} for a call that is none).
 *
 * <p>Stateless; its methods may be called from any thread.
 */
public final class SiteTable {

    /** The code of a local slot whose value is dead at the site. */
    public static final String DEAD = "_";

    /** The code of the second slot of a long or double. */
    public static final String SECOND_HALF = "-";

    /** The mark before the code of a reference slot that is never null at its site. */
    public static final String NON_NULL = "!";

    /** The mark after the receiver's code that names the local it was loaded from. */
    public static final String RECEIVER_IN = "=";

    /** The mark that starts a passed-through bridge's target where another method lists its sites. */
    public static final String BRIDGES_TO = ">";

    /**
     * The code of an int slot whose values are 0 to 127: all that a {@code byte} and a
     * {@code char} both hold, for a slot that may be either (its values are constants, and no
     * {@code LocalVariableTable} declares its type).
     */
    public static final char BYTE_AND_CHAR = 'b';

    /** The code of an int slot whose values are 0 to 32767: all that a {@code short} and a {@code char} both hold. */
    public static final char SHORT_AND_CHAR = 's';

    /**
     * The codes of an int-like slot's width, narrowest first: {@code boolean} (0 and 1),
     * {@link #BYTE_AND_CHAR}, {@code byte}, {@link #SHORT_AND_CHAR}, {@code short}, {@code char}
     * and {@code int}. Each is a range ({@link #lowest}, {@link #highest}); the first that holds a
     * range is the narrowest that does, and the values both a {@code byte} and a {@code char}, or
     * both a {@code short} and a {@code char}, can have are each a width of their own: the
     * widths are closed under intersection.
     */
    public static final String INT_WIDTHS = "ZbBsSCI";

    /** The least value of int width {@code width}, one of {@link #INT_WIDTHS}. */
    public static int lowest(char width) {
        return switch (width) {
            case 'Z', BYTE_AND_CHAR, SHORT_AND_CHAR, 'C' -> 0;
            case 'B' -> Byte.MIN_VALUE;
            case 'S' -> Short.MIN_VALUE;
            default -> Integer.MIN_VALUE;
        };
    }

    /** The greatest value of int width {@code width}, one of {@link #INT_WIDTHS}. */
    public static int highest(char width) {
        return switch (width) {
            case 'Z' -> 1;
            case BYTE_AND_CHAR, 'B' -> Byte.MAX_VALUE;
            case SHORT_AND_CHAR, 'S' -> Short.MAX_VALUE;
            case 'C' -> Character.MAX_VALUE;
            default -> Integer.MAX_VALUE;
        };
    }

    /** Whether {@code value} is one of int width {@code width}'s. */
    public static boolean holds(char width, long value) {
        return value >= lowest(width) && value <= highest(width);
    }

    /** The line of a site whose class has no {@code LineNumberTable} entry for its call. */
    public static final int NO_LINE = -1;

    /** The site id given in the landing table to a call that is not a suspension site. */
    public static final int NOT_A_SITE = -1;

    /**
     * One suspension site: a call, and the types of the frame's slots while it is in progress.
     *
     * @param locals and {@code stack}: the slots' codes, without the {@link #NON_NULL} mark
     * @param nonNull which slots, locals then stack, hold a reference that is never null there
     * @param receiverLocal the local the call's receiver was loaded from and which still holds
     *        it, live at the site, or -1: the woven engine saves only the local, and a frame whose
     *        receiver is another object than that local's is refused
     * @param line the source line of the call, or {@link #NO_LINE}
     * @param names each local's source name at the call, the empty string where it has none;
     *        an empty list where no local has one
     */
    public record Site(int bci, String target, List<String> locals, List<String> stack, int monitors, int opcode,
            Set<Integer> nonNull, int receiverLocal, int line, List<String> names) {

        /** The JVM's {@code invokestatic} opcode. */
        public static final int INVOKESTATIC = 184;
        /** The JVM's {@code invokespecial} opcode. */
        public static final int INVOKESPECIAL = 183;

        public Site {
            locals = List.copyOf(locals);
            stack = List.copyOf(stack);
            nonNull = Set.copyOf(nonNull);
            names = names.stream().allMatch(String::isEmpty) ? List.of() : List.copyOf(names);
            if (!names.isEmpty() && names.size() != locals.size()
                    || !names.stream().allMatch(name -> name.isEmpty() || isIdentifier(name))) {
                throw new IllegalArgumentException("malformed site table entry: site " + bci + " names its "
                        + locals.size() + " locals " + names);
            }
            if (receiverLocal != -1 && !holdsReceiver(receiverLocal, locals, stack, opcode)) {
                throw new IllegalArgumentException("malformed site table entry: site " + bci + " names local "
                        + receiverLocal + " as its receiver's, which is no live local of the receiver's type");
            }
        }

        /** Whether {@code local} can hold the receiver, the last of {@code stack}: a live local of its type. */
        private static boolean holdsReceiver(int local, List<String> locals, List<String> stack, int opcode) {
            return opcode != INVOKESTATIC && !stack.isEmpty() && local >= 0 && local < locals.size()
                    && locals.get(local).equals(stack.get(stack.size() - 1));
        }

        /** A site whose receiver, if any, is saved as a value of its own. */
        public Site(int bci, String target, List<String> locals, List<String> stack, int monitors, int opcode,
                Set<Integer> nonNull) {
            this(bci, target, locals, stack, monitors, opcode, nonNull, -1);
        }

        /** A site of a class without line numbers or local variable names. */
        public Site(int bci, String target, List<String> locals, List<String> stack, int monitors, int opcode,
                Set<Integer> nonNull, int receiverLocal) {
            this(bci, target, locals, stack, monitors, opcode, nonNull, receiverLocal, NO_LINE, List.of());
        }

        /** The source name of local {@code slot} at this site, or null if the table has none. */
        public String nameOf(int slot) {
            return slot >= 0 && slot < names.size() && !names.get(slot).isEmpty() ? names.get(slot) : null;
        }

        /** Whether the call selects its method by its receiver's class ({@code invokevirtual}, {@code invokeinterface}). */
        public boolean isVirtual() {
            return opcode != INVOKESTATIC && opcode != INVOKESPECIAL;
        }

        /** The owner's internal name of the called method. */
        public String targetOwner() {
            return target.substring(0, target.indexOf('.'));
        }

        /** The called method's name and descriptor. */
        public String targetKey() {
            return target.substring(target.indexOf('.') + 1);
        }
    }

    /**
     * One method the weaver looked at.
     *
     * @param key its name and descriptor
     * @param hash the hash of its original bytecode
     * @param unsupported why the weaver left it as it was, or null if it is woven
     * @param bridgeTo for a bridge method that the weaver passes through (see
     *        {@link WeavingContract#BRIDGE_ACCESS}), the name and descriptor of the method it
     *        calls on its own receiver, by a virtual call named in its own class; else null. Such
     *        a method has no sites: no frame of it is ever saved, on either engine, and a call
     *        that reaches it stands, in a frame list, for a call of the method it bridges to.
     */
    public record Method(String key, String hash, List<Site> sites, String unsupported, String bridgeTo) {

        public Method {
            sites = List.copyOf(sites);
            if (bridgeTo != null && (!sites.isEmpty() || unsupported != null)) {
                throw new IllegalArgumentException("a passed-through bridge has neither sites nor a reason: " + key);
            }
        }

        /** A method that is no passed-through bridge. */
        public Method(String key, String hash, List<Site> sites, String unsupported) {
            this(key, hash, sites, unsupported, null);
        }
    }

    private SiteTable() {
    }

    /** Whether {@code name} is a Java identifier, which a site may record as a local's name. */
    public static boolean isIdentifier(String name) {
        if (name.isEmpty() || !Character.isJavaIdentifierStart(name.codePointAt(0))) {
            return false;
        }
        return name.codePoints().allMatch(Character::isJavaIdentifierPart);
    }

    /** The site table of {@code methods} of a class without a source file name, header line included. */
    public static String write(List<Method> methods) {
        return write(null, methods);
    }

    /**
     * The site table of {@code methods}, header line included.
     *
     * @param sourceFile the name of the class's source file, or null if it has none
     */
    public static String write(String sourceFile, List<Method> methods) {
        StringBuilder table = new StringBuilder(WeavingContract.tableHeader());
        if (sourceFile != null && !sourceFile.isEmpty()) {
            table.append('\t').append(sourceFile.replace('\n', ' ').replace('\t', ' '));
        }
        table.append('\n');
        for (Method method : methods) {
            table.append(method.key()).append('\t').append(method.hash()).append('\t');
            if (method.bridgeTo() != null) {
                table.append(BRIDGES_TO).append(method.bridgeTo());
            }
            table.append(String.join(" ", method.sites().stream().map(SiteTable::write).toList()));
            if (method.unsupported() != null) {
                table.append('\t').append(method.unsupported().replace('\n', ' ').replace('\t', ' '));
            }
            table.append('\n');
        }
        return table.toString();
    }

    private static String write(Site site) {
        String receiverIn = site.receiverLocal() < 0 ? "" : RECEIVER_IN + site.receiverLocal();
        return site.bci() + "|" + site.target() + "|" + String.join(",", marked(site, site.locals(), 0)) + "|"
                + String.join(",", marked(site, site.stack(), site.locals().size())) + receiverIn + "|"
                + site.monitors() + "|" + site.opcode() + "|" + site.line() + "|" + String.join(",", site.names());
    }

    /** {@code codes}, the slots from {@code first} on, with the never-null ones marked. */
    private static List<String> marked(Site site, List<String> codes, int first) {
        List<String> marked = new ArrayList<>(codes.size());
        for (int i = 0; i < codes.size(); i++) {
            marked.add(site.nonNull().contains(first + i) ? NON_NULL + codes.get(i) : codes.get(i));
        }
        return marked;
    }

    /** The format version {@code table} declares in its header line; "unknown" if it has none. */
    public static String formatOf(String table) {
        String header = header(table);
        if (!header.startsWith(WeavingContract.TABLE_HEADER)) {
            return "unknown";
        }
        int tab = header.indexOf('\t');
        return header.substring(WeavingContract.TABLE_HEADER.length(), tab < 0 ? header.length() : tab);
    }

    /** The source file name {@code table}'s header line gives its class, or null if it gives none. */
    public static String sourceFileOf(String table) {
        String header = header(table);
        int tab = header.indexOf('\t');
        return tab < 0 || tab == header.length() - 1 ? null : header.substring(tab + 1);
    }

    private static String header(String table) {
        int newline = table.indexOf('\n');
        return newline < 0 ? table : table.substring(0, newline);
    }

    /**
     * The methods of a site table of the current format.
     *
     * @throws IllegalArgumentException if {@code table} is of another format, or malformed
     */
    public static List<Method> read(String table) {
        if (!formatOf(table).equals(String.valueOf(WeavingContract.FORMAT_VERSION))) {
            throw new IllegalArgumentException("a site table of format " + formatOf(table) + ", not "
                    + WeavingContract.FORMAT_VERSION);
        }
        List<Method> methods = new ArrayList<>();
        for (String line : lines(table.substring(table.indexOf('\n') + 1))) {
            methods.add(readMethod(line));
        }
        return methods;
    }

    private static Method readMethod(String line) {
        String[] parts = fields(line, "\t", 3, 4);
        if (parts[2].startsWith(BRIDGES_TO)) {
            if (parts.length > 3) {
                throw new IllegalArgumentException("malformed site table entry: " + line);
            }
            return new Method(parts[0], parts[1], List.of(), null, parts[2].substring(BRIDGES_TO.length()));
        }
        List<Site> sites = new ArrayList<>();
        for (String site : parts[2].split(" ")) {
            if (!site.isEmpty()) {
                sites.add(readSite(site));
            }
        }
        String unsupported = parts.length > 3 && !parts[3].isEmpty() ? parts[3] : null;
        return new Method(parts[0], parts[1], sites, unsupported);
    }

    private static Site readSite(String site) {
        String[] f = fields(site, "\\|", 8, 8);
        List<String> locals = codes(f[2]);
        int mark = f[3].indexOf(RECEIVER_IN);
        List<String> stack = codes(mark < 0 ? f[3] : f[3].substring(0, mark));
        int receiverLocal = mark < 0 ? -1 : Integer.parseInt(f[3].substring(mark + RECEIVER_IN.length()));
        Set<Integer> nonNull = new HashSet<>();
        List<String> all = new ArrayList<>(locals);
        all.addAll(stack);
        for (int slot = 0; slot < all.size(); slot++) {
            if (all.get(slot).startsWith(NON_NULL)) {
                nonNull.add(slot);
            }
        }
        List<String> names = f[7].isEmpty() ? List.of() : List.of(f[7].split(",", -1));
        return new Site(Integer.parseInt(f[0]), f[1], unmarked(locals), unmarked(stack), Integer.parseInt(f[4]),
                Integer.parseInt(f[5]), nonNull, receiverLocal, Integer.parseInt(f[6]), names);
    }

    private static List<String> unmarked(List<String> codes) {
        return codes.stream().map(c -> c.startsWith(NON_NULL) ? c.substring(NON_NULL.length()) : c).toList();
    }

    private static List<String> codes(String codes) {
        return codes.isEmpty() ? List.of() : List.of(codes.split(","));
    }

    /** The landing table of {@code landings}: per method key, woven bytecode index to site id. */
    public static String writeLandings(Map<String, Map<Integer, Integer>> landings) {
        StringBuilder table = new StringBuilder();
        landings.forEach((key, calls) -> {
            table.append(key).append('\t');
            String separator = "";
            for (Map.Entry<Integer, Integer> call : calls.entrySet()) {
                table.append(separator).append(call.getKey()).append(':').append(call.getValue());
                separator = ",";
            }
            table.append('\n');
        });
        return table.toString();
    }

    /**
     * Per method key, woven bytecode index to site id, in the order written.
     *
     * @throws IllegalArgumentException if {@code table} is malformed
     */
    public static Map<String, Map<Integer, Integer>> readLandings(String table) {
        Map<String, Map<Integer, Integer>> landings = new LinkedHashMap<>();
        for (String line : lines(table)) {
            String[] parts = fields(line, "\t", 2, 2);
            Map<Integer, Integer> calls = new LinkedHashMap<>();
            for (String pair : parts[1].split(",")) {
                if (!pair.isEmpty()) {
                    String[] indexes = fields(pair, ":", 2, 2);
                    calls.put(Integer.parseInt(indexes[0]), Integer.parseInt(indexes[1]));
                }
            }
            landings.put(parts[0], calls);
        }
        return landings;
    }

    private static List<String> lines(String text) {
        return text.lines().filter(line -> !line.isEmpty()).toList();
    }

    private static String[] fields(String text, String separator, int least, int most) {
        String[] fields = text.split(separator, -1);
        if (fields.length < least || fields.length > most) {
            throw new IllegalArgumentException("malformed site table entry: " + text);
        }
        return fields;
    }
}
