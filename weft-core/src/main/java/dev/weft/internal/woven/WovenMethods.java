package dev.weft.internal.woven;

import dev.weft.internal.contract.PackedText;
import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.SiteTable.Site;
import dev.weft.internal.contract.WeavingContract;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the weaver recorded about the methods of one woven class: for each method, the hash of
 * its original bytecode and its suspension sites. The weaver makes each woven class register
 * in its static initializer ({@link #register(MethodHandles.Lookup)}), proving who it is with
 * its own lookup: no class can register for another. A class that registers none is not woven.
 * Its table is read from the class, through that lookup, only when the runtime first needs it
 * (a class used only outside coroutines never builds it), and kept.
 *
 * <p>The lookup a class registers with is kept, and is how the runtime reaches the class's
 * twins, which are private ({@link Twins}): it is never handed out, only used to make handles
 * of twins for calls that the caller's own lookup was found to be allowed to make, of the
 * twins' originals ({@link TwinLinker}), and for the engine's own calls of frames it saved or
 * was given. Being the class's own, it works in any module, open to Weft or not.
 *
 * <p>Both tables are in the format of {@link SiteTable}, which the weaver writes them with.
 */
public final class WovenMethods {

    /**
     * One method the weaver looked at.
     *
     * @param unsupported why the weaver left it as it was, or null if it is woven
     * @param bridgeTo for a bridge the weaver passes through, the key of the method it calls on
     *        its own receiver (see {@link SiteTable.Method#bridgeTo}); else null
     */
    @SuppressWarnings("exports") // read by the frame checks in this module; the site table's types stay unexported
    public record WovenMethod(String key, String hash, Map<Integer, Site> sites, String unsupported, String bridgeTo) {
    }

    /** Per class, the full-privilege lookup it registered with, kept by its first registration; null until then. */
    private static final ClassValue<MethodHandles.Lookup[]> LOOKUPS = new ClassValue<>() {
        @Override
        protected MethodHandles.Lookup[] computeValue(Class<?> type) {
            return new MethodHandles.Lookup[1];
        }
    };

    /** Per class, its table once registered; an empty holder for a class that has none (yet). */
    private static final ClassValue<WovenMethods[]> TABLES = new ClassValue<>() {
        @Override
        protected WovenMethods[] computeValue(Class<?> type) {
            return new WovenMethods[1];
        }
    };

    private final Map<String, WovenMethod> methods;
    private final boolean everyFrameCapturable;
    /** The class's source file as its {@code SourceFile} attribute names it, or null. */
    private final String sourceFile;

    private WovenMethods(Map<String, WovenMethod> methods, String sourceFile) {
        this.methods = methods;
        this.sourceFile = sourceFile;
        this.everyFrameCapturable = methods.values().stream().allMatch(
                m -> m.unsupported() == null && m.sites().values().stream().allMatch(site -> site.monitors() == 0));
    }

    /**
     * Whether a frame of this class can be captured wherever it is suspended: every method that
     * may be suspended in is woven (the weaver lists constructors that may be, as unsupported),
     * and none holds a monitor at a site. A frame of such a class needs no closer look.
     */
    public boolean everyFrameCapturable() {
        return everyFrameCapturable;
    }

    /** The class's source file name as the weaver found it, or null if the class names none. */
    public String sourceFile() {
        return sourceFile;
    }

    /** Per class, for each woven method, the original bytecode index of the site at each woven one. */
    private static final ClassValue<Map<String, Map<Integer, Integer>>> WOVEN_SITES = new ClassValue<>() {
        @Override
        protected Map<String, Map<Integer, Integer>> computeValue(Class<?> type) {
            return new java.util.concurrent.ConcurrentHashMap<>();
        }
    };

    /**
     * Formats 8 and 9's first registration, of where the class's sites landed, which their
     * static initializers make before {@link #register(MethodHandles.Lookup, String)}: ignored,
     * as the registration that follows refuses the class, naming its format.
     *
     * @throws IllegalStateException if the lookup is not a class's own full-privilege lookup
     */
    public static void registerWovenSites(MethodHandles.Lookup own, String map) {
        registering(own);
    }

    /** Records where {@code type}'s sites' calls landed: {@code map} has a line per method, {@code key TAB wovenBci:bci,...}. */
    private static void recordWovenSites(Class<?> type, String map) {
        Map<String, Map<Integer, Integer>> methods = WOVEN_SITES.get(type);
        Map<String, Map<Integer, String>> byName = KEYS_BY_NAME.get(type);
        SiteTable.readLandings(map).forEach((key, sites) -> {
            String name = key.substring(0, key.indexOf('('));
            sites.keySet().forEach(wovenBci -> byName.computeIfAbsent(name, n -> new HashMap<>())
                    .merge(wovenBci, key, (one, other) -> one.equals(other) ? one : AMBIGUOUS));
            methods.put(key, sites);
        });
    }

    /** Per class, method name, then woven site bci: the method's key, or {@link #AMBIGUOUS} for overloads that share both. */
    private static final ClassValue<Map<String, Map<Integer, String>>> KEYS_BY_NAME = new ClassValue<>() {
        @Override
        protected Map<String, Map<Integer, String>> computeValue(Class<?> type) {
            return new java.util.concurrent.ConcurrentHashMap<>();
        }
    };

    private static final String AMBIGUOUS = "";

    /**
     * The key (name and descriptor) of {@code type}'s method {@code name} that has a site at woven
     * bytecode index {@code wovenBci}; null if none is known, or if overloads share both. Spares
     * the caller resolving a stack frame's descriptor, which costs more than its name.
     */
    public static String keyAt(Class<?> type, String name, int wovenBci) {
        registered(type);
        String key = KEYS_BY_NAME.get(type).getOrDefault(name, Map.of()).get(wovenBci);
        return key == null || key.isEmpty() ? null : key;
    }

    /** Per class, woven bytecode index: the site there, where no other call of the class shares the index. */
    private static final ClassValue<Map<Integer, Site>> UNSHARED_SITES = new ClassValue<>() {
        @Override
        protected Map<Integer, Site> computeValue(Class<?> type) {
            return unsharedSites(type);
        }
    };

    /**
     * The site a frame of {@code type} suspended at woven bytecode index {@code wovenBci} is in,
     * if that index is a site of a woven method and no other call of the class is at the same
     * index; null otherwise, when only the frame's method name and descriptor can tell. Spares
     * the caller resolving those, which costs more than the rest of a frame's check. Call only
     * once {@code type} is initialized ({@link #of} does it).
     */
    @SuppressWarnings("exports") // as WovenMethod
    public static Site unsharedSiteAt(Class<?> type, int wovenBci) {
        return UNSHARED_SITES.get(type).get(wovenBci);
    }

    private static Map<Integer, Site> unsharedSites(Class<?> type) {
        WovenMethods table = registered(type);
        Map<Integer, String> keys = new HashMap<>();
        WOVEN_SITES.get(type).forEach((key, sites) -> sites.keySet().forEach(
                wovenBci -> keys.merge(wovenBci, key, (one, other) -> AMBIGUOUS)));
        Map<Integer, Site> unshared = new HashMap<>();
        keys.forEach((wovenBci, key) -> {
            WovenMethod method = table == null || key.isEmpty() ? null : table.method(key);
            Site site = method == null || method.unsupported() != null ? null : table.siteAt(type, key, wovenBci);
            if (site != null) {
                unshared.put(wovenBci, site);
            }
        });
        return Map.copyOf(unshared);
    }

    /**
     * The site that a frame of {@code type}'s method {@code key}, suspended at woven bytecode
     * index {@code wovenBci}, is in; null if unknown.
     */
    @SuppressWarnings("exports") // as WovenMethod
    public Site siteAt(Class<?> type, String key, int wovenBci) {
        Integer bci = WOVEN_SITES.get(type).getOrDefault(key, Map.of()).get(wovenBci);
        WovenMethod method = methods.get(key);
        return bci == null || method == null ? null : method.sites().get(bci);
    }

    /**
     * Called by a woven class's static initializer with its own {@code MethodHandles.lookup()},
     * which proves that the class registers itself. Its site table is read when first needed
     * ({@link #registered}), through this lookup.
     *
     * @throws IllegalStateException if the lookup is not a class's own full-privilege lookup
     */
    public static void register(MethodHandles.Lookup own) {
        Class<?> type = registering(own);
        MethodHandles.Lookup[] lookup = LOOKUPS.get(type);
        synchronized (lookup) {
            if (lookup[0] == null) {
                lookup[0] = own;
            }
        }
    }

    /**
     * Formats 8 and 9's registration of the class's table, which classes woven by those weavers
     * call.
     *
     * @throws IllegalStateException always, naming the class and the table's format, if the
     *         lookup is the class's own: the class must be woven again
     */
    public static void register(MethodHandles.Lookup own, String table) {
        throw staleFormat(registering(own).getName(), SiteTable.formatOf(table));
    }

    /**
     * The table of {@code type}, initializing it if need be, or null if it is not woven. A class
     * that does not declare the weaver's marker method is never initialized here: a name read from
     * untrusted bytes must not run a static initializer before it is known to be woven code.
     */
    public static WovenMethods of(Class<?> type) {
        WovenMethods[] holder = TABLES.get(type);
        if (holder[0] == null && LOOKUPS.get(type)[0] == null && !type.isHidden() && !type.isPrimitive() && !type.isArray()
                && isMarked(type)) {
            try {
                Class.forName(type.getName(), true, type.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return null;
            }
        }
        return registered(type);
    }

    /**
     * The lookup {@code type} registered its table with, which has full privilege in it; null if
     * it has registered none (it is not initialized yet, or not woven). Never initializes it.
     * Weft's own: not to leave this package.
     */
    static MethodHandles.Lookup lookupOf(Class<?> type) {
        return LOOKUPS.get(type)[0];
    }

    /**
     * The table {@code type} has registered, read from the class the first time, or null: never
     * initializes it, unlike {@link #of}.
     *
     * @throws IllegalStateException if the table is of another format than this runtime's
     */
    public static WovenMethods registered(Class<?> type) {
        WovenMethods[] holder = TABLES.get(type);
        WovenMethods table = holder[0];
        if (table != null) {
            return table;
        }
        MethodHandles.Lookup own = LOOKUPS.get(type)[0];
        return own == null ? null : read(type, own, holder);
    }

    /**
     * Reads {@code type}'s table and landings from its two methods through its own lookup, and
     * keeps them. No lock is held while the class's methods run (the class may be being
     * initialized by another thread, which waits for the lock then): two threads may read the
     * same strings, and the first to finish keeps its result.
     */
    private static WovenMethods read(Class<?> type, MethodHandles.Lookup own, WovenMethods[] holder) {
        String table = ownString(type, own, WeavingContract.SITE_TABLE_METHOD);
        String map = ownString(type, own, WeavingContract.WOVEN_SITES_METHOD);
        WovenMethods parsed = parse(type, table);
        synchronized (holder) {
            if (holder[0] == null) {
                recordWovenSites(type, map);
                holder[0] = parsed;
            }
            return holder[0];
        }
    }

    /**
     * What {@code type}'s static method {@code method()} returns, called through the class's own
     * lookup, unpacked ({@link PackedText}); a text that is not packed as it is (a class of format
     * 10 or older, whose table then names its format).
     */
    private static String ownString(Class<?> type, MethodHandles.Lookup own, String method) {
        try {
            String text = (String) own.findStatic(type, method, MethodType.methodType(String.class)).invokeExact();
            return PackedText.isPacked(text) ? PackedText.unpack(text) : text;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot read the site table of " + type.getName() + ": " + e, e);
        }
    }
    /**
     * Whether {@code type} declares the static method every woven class declares
     * ({@link WeavingContract#WOVEN_SITES_METHOD}), which marks it as woven; looked up without
     * initializing it.
     */
    public static boolean isMarked(Class<?> type) {
        try {
            return java.lang.reflect.Modifier.isStatic(type.getDeclaredMethod(WeavingContract.WOVEN_SITES_METHOD).getModifiers());
        } catch (NoSuchMethodException | LinkageError e) {
            return false;
        }
    }

    /**
     * What the weaver recorded for {@code method}, initializing its class as {@link #of} does;
     * null if its class is not woven or the weaver did not weave it.
     */
    public static WovenMethod methodOf(java.lang.reflect.Method method) {
        WovenMethods table = of(method.getDeclaringClass());
        return table == null ? null : table.method(method.getName() + WovenFrames.descriptorOf(method));
    }

    /** The method {@code key} (name then descriptor), or null if the weaver did not weave it. */
    public WovenMethod method(String key) {
        return methods.get(key);
    }

    /**
     * Format 1's registration, which classes woven by an older weaver call.
     *
     * @throws IllegalStateException always, saying to weave {@code type} again
     */
    public static void register(Class<?> type, String table) {
        throw staleFormat(type.getName(), "1");
    }

    /** Format 1's registration of where sites landed: refused like {@link #register(Class, String)}. */
    public static void registerWovenSites(Class<?> type, String map) {
        throw staleFormat(type.getName(), "1");
    }

    private static IllegalStateException staleFormat(String className, String version) {
        return new IllegalStateException(className + " was woven by another version of weft-weaver (woven code format "
                + version + "); this Weft runs format " + WeavingContract.FORMAT_VERSION + ": recompile " + className
                + " and weave it again with this version's weaver (agent, plugin or command line; a class already woven"
                + " is never woven twice, so build from clean)");
    }

    /** The class that {@code own} proves to be registering itself. */
    private static Class<?> registering(MethodHandles.Lookup own) {
        if (own == null || !own.hasFullPrivilegeAccess()) {
            throw new IllegalStateException("a woven class registers itself with its own MethodHandles.lookup(), not "
                    + own);
        }
        return own.lookupClass();
    }

    /** The table of {@code type}, which starts with the format's header line. */
    static WovenMethods parse(Class<?> type, String table) {
        String format = SiteTable.formatOf(table);
        if (!format.equals(String.valueOf(WeavingContract.FORMAT_VERSION))) {
            throw staleFormat(type.getName(), format);
        }
        Map<String, WovenMethod> methods = new HashMap<>();
        for (SiteTable.Method method : SiteTable.read(table)) {
            Map<Integer, Site> sites = new HashMap<>();
            method.sites().forEach(site -> sites.put(site.bci(), site));
            methods.put(method.key(), new WovenMethod(method.key(), method.hash(), sites, method.unsupported(),
                    method.bridgeTo()));
        }
        return new WovenMethods(methods, SiteTable.sourceFileOf(table));
    }
}
