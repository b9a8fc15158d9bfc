package dev.weft;

import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.woven.WovenMethods;

import java.io.ObjectInputFilter;
import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deserialization filter of every {@link CoroutineInputStream}: an allow-list of classes and
 * limits on the graph, so that bytes from elsewhere cannot run code of any class they name nor
 * exhaust the reader. Allowed: primitives and arrays of allowed classes; Weft's own stream
 * classes; the classes the weaver recorded for the slots of every method whose frame the stream
 * has named so far (read from the woven class's site table; their subclasses too, unless the
 * slot's type is as broad as {@code Object} or {@code List}); lambdas that woven code made; the
 * JDK value classes of {@link #JDK_VALUES}; and what the reader adds. Limits:
 * graph depth, array length, references and bytes, each with a default the reader may change;
 * {@link FrameCodec} applies the last three to a record's counts and length too.
 *
 * <p>Remembers the last refusal, so that the stream can name the class and how to allow it.
 * Confined to its stream's reading thread.
 */
final class ReadFilter implements ObjectInputFilter {

    /** Default limits; generous for any coroutine's frames, small enough that nothing read can exhaust the JVM. */
    static final long DEFAULT_MAX_DEPTH = 256;
    static final long DEFAULT_MAX_ARRAY_LENGTH = 1 << 20;
    static final long DEFAULT_MAX_REFERENCES = 1 << 20;
    static final long DEFAULT_MAX_BYTES = Seal.MAX_PAYLOAD;

    /**
     * The JDK classes allowed by default: immutable values and list-like collections of them.
     * Hash-based collections are left out on purpose: nested {@code HashSet}s make a stream of a
     * few hundred bytes take ages to read; a reader that trusts its bytes allows them by name.
     */
    static final List<String> JDK_VALUES = List.of("java.lang.String", "java.lang.Boolean", "java.lang.Character",
            "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float",
            "java.lang.Double", "java.lang.Number", "java.lang.Enum", "java.math.BigInteger", "java.math.BigDecimal",
            "java.util.UUID", "java.util.ArrayList", "java.util.LinkedList", "java.util.ArrayDeque",
            "java.lang.invoke.SerializedLambda", "java.time.Ser", "java.time.Duration", "java.time.Instant",
            "java.time.LocalDate", "java.time.LocalDateTime", "java.time.LocalTime", "java.time.ZonedDateTime",
            "java.time.OffsetDateTime", "java.time.Period", "java.time.ZoneOffset", "java.time.ZoneRegion",
            // what a Throwable (a caught exception kept across a suspension) holds
            "java.lang.StackTraceElement", "java.util.Collections$EmptyList",
            "java.util.Collections$UnmodifiableRandomAccessList", "java.util.Collections$UnmodifiableList",
            "java.util.Collections$UnmodifiableCollection");

    /** Slot types too broad to allow their subclasses by: anything would pass. */
    private static final Set<String> BROAD = Set.of("java.lang.Object", "java.io.Serializable", "java.lang.Cloneable",
            "java.lang.Comparable", "java.lang.CharSequence", "java.lang.Iterable", "java.util.Collection",
            "java.util.Map", "java.util.Set", "java.util.List");

    /**
     * Weft's own classes that the serialized objects of a record hold: the placeholder of the
     * coroutine itself, and the reference a {@code Method} in a slot is written as; {@code
     * Method}, which a method reference resolves to: the filter sees it again when the stream
     * refers back to a method it has read (a stream cannot hold one itself: it is not
     * serializable); and {@code Object}, for an {@code Object[]} in a slot (an instance of
     * {@code Object} itself is not serializable).
     */
    private static final List<String> WEFT = List.of(CoroutineOutputStream.SelfReference.class.getName(),
            MethodReference.class.getName(), Method.class.getName(), Object.class.getName());

    /** What every filter allows, whatever the stream: {@link #JDK_VALUES} and {@link #WEFT}. */
    private static final Set<String> DEFAULTS = defaults();

    /** The classes recorded for the reference slots of each woven method's sites, by name: the same for every read. */
    private static final ClassValue<Map<Method, List<String>>> SLOT_CLASSES = new ClassValue<>() {
        @Override
        protected Map<Method, List<String>> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    /** What this filter allows beyond the defaults. */
    private final Set<String> allowed = new HashSet<>();
    private final Set<String> packages = new HashSet<>();
    /** The recorded slot types, but the broad ones, whose subclasses are allowed too. */
    private final Set<Class<?>> recorded = new HashSet<>();
    private long maxDepth = DEFAULT_MAX_DEPTH;
    private long maxArrayLength = DEFAULT_MAX_ARRAY_LENGTH;
    private long maxReferences = DEFAULT_MAX_REFERENCES;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private String refusal;

    private static Set<String> defaults() {
        Set<String> defaults = new HashSet<>(JDK_VALUES);
        defaults.addAll(WEFT);
        return Set.copyOf(defaults);
    }

    void allow(String className) {
        allowed.add(className);
    }

    void allowPackage(String packageName) {
        packages.add(packageName.endsWith(".") ? packageName : packageName + ".");
    }

    void limit(long depth, long arrayLength, long references, long bytes) {
        maxDepth = depth;
        maxArrayLength = arrayLength;
        maxReferences = references;
        maxBytes = bytes;
    }

    /** Allows the classes the weaver recorded for the reference slots of {@code method}'s sites. */
    void allowSlotsOf(Method method) {
        ClassLoader loader = method.getDeclaringClass().getClassLoader();
        for (String name : SLOT_CLASSES.get(method.getDeclaringClass()).computeIfAbsent(method, ReadFilter::slotClasses)) {
            allow(name, loader);
        }
    }

    private static List<String> slotClasses(Method method) {
        WovenMethods.WovenMethod woven = WovenMethods.methodOf(method);
        if (woven == null) {
            return List.of();
        }
        Set<String> names = new LinkedHashSet<>();
        for (SiteTable.Site site : woven.sites().values()) {
            site.locals().forEach(code -> addClassName(code, names));
            site.stack().forEach(code -> addClassName(code, names));
        }
        return List.copyOf(names);
    }

    /** Adds the class that slot type {@code code} names, or its arrays' element class, if it is a class. */
    private static void addClassName(String code, Set<String> names) {
        String element = code.replace("[", "");
        if (element.startsWith("L") && element.endsWith(";")) {
            names.add(element.substring(1, element.length() - 1).replace('/', '.'));
        }
    }

    private void allow(String name, ClassLoader loader) {
        if (!DEFAULTS.contains(name) && allowed.add(name) && !BROAD.contains(name)) {
            try {
                recorded.add(Class.forName(name, false, loader));
            } catch (ClassNotFoundException | LinkageError e) {
                // allowed by name only
            }
        }
    }

    long maxArrayLength() {
        return maxArrayLength;
    }

    long maxReferences() {
        return maxReferences;
    }

    long maxBytes() {
        return maxBytes;
    }

    /** Why the last input was refused, naming the class or limit and how to allow it; null if none was. */
    String refusal() {
        return refusal;
    }

    @Override
    public Status checkInput(FilterInfo info) {
        String why = exceeded(info);
        if (why == null && info.serialClass() != null) {
            why = refusedClass(info.serialClass());
        }
        if (why != null) {
            refusal = why;
            return Status.REJECTED;
        }
        return Status.ALLOWED;
    }

    private String exceeded(FilterInfo info) {
        if (info.depth() > maxDepth) {
            return "the object graph is deeper than " + maxDepth + " levels (raise it with limit(...))";
        }
        if (info.arrayLength() > maxArrayLength) {
            return "an array of " + info.arrayLength() + " elements is longer than " + maxArrayLength
                    + " (raise it with limit(...))";
        }
        if (info.references() > maxReferences) {
            return "the stream holds more than " + maxReferences + " objects (raise it with limit(...))";
        }
        if (info.streamBytes() > maxBytes) {
            return "the stream is longer than " + maxBytes + " bytes (raise it with limit(...))";
        }
        return null;
    }

    private String refusedClass(Class<?> type) {
        Class<?> element = type;
        while (element.isArray()) {
            element = element.getComponentType();
        }
        if (element.isPrimitive() || isAllowed(element)) {
            return null;
        }
        return "it holds a " + type.getName() + ", which is not allowed: only Weft's classes, the classes recorded"
                + " for the frames' slots and JDK value classes are read by default; allow it with"
                + " allow(" + element.getName() + ".class) or allowPackage(\"" + element.getPackageName()
                + "\") if the stream is trusted";
    }

    private boolean isAllowed(Class<?> type) {
        String name = type.getName();
        if (DEFAULTS.contains(name) || allowed.contains(name)) {
            return true;
        }
        if (type.isHidden()) {
            return WovenMethods.isMarked(type.getNestHost()); // a lambda of woven code, rebuilt by its $deserializeLambda$
        }
        for (Class<?> t : recorded) {
            if (t.isAssignableFrom(type)) {
                return true;
            }
        }
        for (String p : packages) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
