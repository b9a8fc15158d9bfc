package dev.weft.internal.contract;

/**
 * The names that code woven by {@code weft-weaver} and Weft's runtime share, defined once for
 * both: the classes and methods woven code calls, the members the weaver adds, and the version
 * of the site table a woven class registers. The weaver emits exactly these; the runtime finds
 * exactly these. Changing any of them changes what woven code looks like: bump
 * {@link #FORMAT_VERSION}, so that classes woven before are refused with a message that says to
 * weave them again, rather than failing on a missing member.
 *
 * <p>Constants only; exported to the weaver alone.
 */
public final class WeavingContract {

    /**
     * The version of woven code and of its site table. 1: the first woven code, which read
     * {@code WovenFrames.active} as a public field and registered its table with its
     * {@code Class}. 2: it calls {@code WovenFrames.active()} and registers with its own full
     * {@code Lookup}, and the table starts with a version line. 3: a site records its call's
     * opcode, int slots their width ({@code Z}, {@code B}, {@code C}, {@code S} or {@code I}),
     * references that are never null a leading {@code !}, and a method's fingerprint covers its
     * {@code invokedynamic} bootstrap arguments and behavioural access flags. 4: twins end each
     * saved frame with {@code fiber.endFrame(class, twinHandle, self, siteId)}, and a frame is
     * resumed alone ({@code fiber.isResuming()}), taking its call's result from
     * {@code fiber.resumed<Kind>()} instead of calling its callee again; its lambdas and method
     * references are bootstrapped by {@code WovenLambdas}. 5: a bridge method of the simple shape
     * ({@link #BRIDGE_ACCESS}; see {@link SiteTable.Method#bridgeTo}) is passed through rather
     * than woven: it is left as compiled, its twin calls the twin of the method it bridges to and
     * never saves a frame, and its site-table line names that method instead of sites, so that
     * no frame list of either engine holds a frame of it. 6: a call whose receiver was loaded
     * from a live local that still holds it names that local after the receiver's code
     * ({@link SiteTable#RECEIVER_IN}), and its twin saves the local only, loading the receiver
     * from it again when it rebuilds its callee. 7: a frame suspended in its last call, which
     * has nothing left to do but return that call's result, ends with its site id marked
     * {@link #TAIL_SITE}; its sites and slots are those of format 6 ({@link #FRAMES_FORMAT_VERSION}).
     * 8: an int slot's width is the type a {@code LocalVariableTable} declares for it where the
     * method has one, and otherwise may be {@link SiteTable#BYTE_AND_CHAR} or
     * {@link SiteTable#SHORT_AND_CHAR}, the values a constant's possible types share (format 7 gave a
     * constant the narrowest single type that holds it, which admitted values of another type);
     * each site records its source line and its locals' source names, and the header line the
     * class's source file ({@link SiteTable}), so that refusals speak in source terms; frames are
     * those of format 6 still, and what format 6 code saved is accepted.
     * 9: woven classes look to reflection as they did compiled. Twins are private and synthetic
     * (format 8's had their methods' access, and a coroutine body's {@code run} twin was public,
     * to implement one of the engine's entry interfaces, which woven classes no longer
     * implement); the runtime reaches them through the lookup each class registers
     * ({@link #REGISTER_METHOD}). The public marker field ({@link #FORMER_MARKER}) is gone: the
     * private method {@link #WOVEN_SITES_METHOD} marks a woven class. An interface before
     * version 52, which can declare no private method, is not woven. A twin carries its
     * original's local variable tables. Frames are those of format 6 still.
     * 10: a class with twins (version 51 and later) keeps its methods' code as compiled: the
     * native engine runs a woven body as twins too, so only twins save and rebuild frames, and
     * code outside coroutines runs the original bytecode. A class before version 51 has no twins
     * and its methods are woven as before, the native engine capturing and restoring them.
     * Frames are those of format 6 still. A twin calls the twins of its own class's static and
     * private methods directly, without a call site. The static initializer registers the class's
     * lookup alone ({@link #REGISTER_LOOKUP_DESCRIPTOR}); the runtime reads the site table from
     * {@link #SITE_TABLE_METHOD} when it first needs it.
     * 11: the site table and the landing map are packed ({@link PackedText}: deflated, seven bits
     * a character): woven commons-lang3's class files 6.21 -> 4.58 MB (3.00x the unwoven ones),
     * guava's 24.2 -> 18.5 MB; frames are those of format 6 still.
     */
    public static final int FORMAT_VERSION = 11;

    /**
     * The format whose terms saved frames are in: what their bcis and slots mean, which
     * serialized frames record and a reader checks. Format 7 changed how twins end a frame,
     * not what a frame holds, so frames written by format 6 code read the same.
     */
    public static final int FRAMES_FORMAT_VERSION = 6;

    /**
     * Marks the site id a twin passes to {@link #END_FRAME_METHOD} when the call is a tail
     * call: outside every try block of the method, followed only by a
     * return of its result, of the method's own return type, or, in a void method, by
     * dropping its result and returning (unconditional jumps between them followed). The
     * engine then passes what the call gives, its result or its exception, straight on to the
     * frame's caller when it resumes the frame, rather than rebuilding it to do that. The
     * frame is saved as any other, and its record names the site without the mark. Site ids
     * are bcis, below this bit.
     */
    public static final int TAIL_SITE = 1 << 30;

    /**
     * The access flags a bridge method has, both of them ({@code ACC_BRIDGE | ACC_SYNTHETIC}, JVM
     * specification 4.6): the weaver passes such a method through when its code has the shape
     * javac gives every bridge, each argument loaded in order and at most cast, one virtual call
     * of the method of the same name it bridges to, declared or inherited by its own class, and
     * that call's result returned. A bridge of any other shape is woven as an ordinary method.
     */
    public static final int BRIDGE_ACCESS = 0x0040 | 0x1000;

    /** The first line of every site table: this prefix, then the format version. */
    public static final String TABLE_HEADER = "weft-sites ";

    /** What the weaver appends to a woven method's name to name its twin. */
    public static final String TWIN_SUFFIX = "$weft";

    /**
     * The public field that marked a class woven up to format 8; the weaver still leaves a class
     * that declares it alone, as woven already (its registration then refuses it, by format).
     */
    public static final String FORMER_MARKER = "$weft$woven";

    /**
     * The static method of a woven class that returns where its sites' calls landed in its
     * woven code; private and synthetic, and declared by every woven class, it is also what
     * marks a class as woven, so that weaving twice changes nothing and the runtime initializes
     * no class that does not declare it.
     */
    public static final String WOVEN_SITES_METHOD = "$weft$wovenSites";

    /**
     * The static method of a woven class that returns its site table ({@code SiteTable}),
     * private and synthetic. The runtime calls it, and {@link #WOVEN_SITES_METHOD}, through the
     * lookup the class registered, when it first needs the class's sites: a class that runs
     * only outside coroutines never builds either string.
     */
    public static final String SITE_TABLE_METHOD = "$weft$siteTable";

    /** The static field in which a class older than version 49 keeps its own {@code Class}. */
    public static final String OWN_CLASS_FIELD = "$weft$class";

    /** What woven code calls to capture and restore its frames on the native engine. */
    public static final String FRAMES_CLASS = "dev/weft/internal/woven/WovenFrames";

    /** The method of {@link #FRAMES_CLASS} that woven code calls after each call: not zero while frames move. */
    public static final String ACTIVE_METHOD = "active";
    public static final String ACTIVE_DESCRIPTOR = "()I";

    /** The frame record that woven code fills on capture and reads on restore (native engine), and its field of the site id. */
    public static final String FRAME_RECORD_CLASS = "dev/weft/CoroutineFrame";
    public static final String FRAME_RECORD_SITE_FIELD = "bci";
    private static final String FRAME_RECORD = "L" + FRAME_RECORD_CLASS + ";";

    /** {@code WovenFrames.captureFrame(ownClass, methodKey, siteId, localCount, expressionCount)}: a record to fill, or null. */
    public static final String CAPTURE_FRAME_METHOD = "captureFrame";
    public static final String CAPTURE_FRAME_DESCRIPTOR = "(Ljava/lang/Class;Ljava/lang/String;III)" + FRAME_RECORD;

    /** {@code WovenFrames.restoring(ownClass, methodKey)}: the record to restore this frame from, or null. */
    public static final String RESTORING_METHOD = "restoring";
    public static final String RESTORING_DESCRIPTOR = "(Ljava/lang/Class;Ljava/lang/String;)" + FRAME_RECORD;

    /** What a woven method throws when its frame record names no site of it: {@code WovenFrames.notASite(record)}. */
    public static final String NOT_A_SITE_METHOD = "notASite";
    public static final String RECORD_NOT_A_SITE_DESCRIPTOR = "(" + FRAME_RECORD + ")Ljava/lang/IllegalStateException;";

    /**
     * The slot accessors of {@code WovenFrames}: {@code put<Kind>(record, slot, value)} and
     * {@code get<Kind>(record, slot)}, for each of {@link #VALUE_KINDS}.
     */
    public static final String PUT_PREFIX = "put";
    public static final String GET_PREFIX = "get";

    /** The kinds of value woven code saves and restores, as the runtime's accessor names end. */
    public static final java.util.List<String> VALUE_KINDS = java.util.List.of("Int", "Float", "Long", "Double", "Object");

    /** {@code fiber.isUnwinding()} and {@code fiber.isResuming()}: whether a twin is saving its frame, or rebuilding it. */
    public static final String UNWINDING_METHOD = "isUnwinding";
    public static final String RESUMING_METHOD = "isResuming";
    /** {@code fiber.rewindsCallee()}: whether a rebuilt frame's callee is being rebuilt too, so that it calls it again. */
    public static final String REWINDS_CALLEE_METHOD = "rewindsCallee";
    public static final String FLAG_DESCRIPTOR = "()Z";

    /**
     * {@code fiber.endFrame(ownClass, twin, self, siteId)}: the last call of a twin that saves its
     * frame, with a {@code MethodHandle} constant of the twin itself (an exact call:
     * {@code REF_invokeSpecial}, or {@code REF_invokeStatic}) by which the engine resumes the
     * frame, on the frame's own receiver (local 0; null for a static method).
     */
    public static final String END_FRAME_METHOD = "endFrame";
    public static final String END_FRAME_DESCRIPTOR = "(Ljava/lang/Class;Ljava/lang/invoke/MethodHandle;Ljava/lang/Object;I)V";

    /**
     * What a resumed twin's call site gives instead of calling again: {@code fiber.resumed<Kind>()}
     * for each of {@link #VALUE_KINDS}, and {@code fiber.resumedVoid()}: the result that the engine
     * passes in (the callee's return value, or the suspension point's), or the exception it passes
     * in, thrown there.
     */
    public static final String RESUMED_PREFIX = "resumed";
    public static final String RESUMED_VOID_METHOD = "resumedVoid";

    /**
     * The fiber's value stack: {@code fiber.push<Kind>(value)} on unwinding and
     * {@code fiber.pop<Kind>()} on rewinding, for each of {@link #VALUE_KINDS}.
     */
    public static final String PUSH_PREFIX = "push";
    public static final String POP_PREFIX = "pop";

    /** What a twin throws when its rewinding site id names no site of it: {@code fiber.notASite(method, siteId)}. */
    public static final String FIBER_NOT_A_SITE_DESCRIPTOR = "(Ljava/lang/String;I)Ljava/lang/IllegalStateException;";

    /**
     * {@code fiber.caught(exception, "pkg.Owner.name$weft")}: the first call of each of a twin's
     * exception handlers, with the exception it caught (duplicated) and the twin's class and
     * name, as a stack trace names its frames, so that the trace shows the coroutine's saved
     * frames below that frame.
     */
    public static final String CAUGHT_METHOD = "caught";
    public static final String CAUGHT_DESCRIPTOR = "(Ljava/lang/Throwable;Ljava/lang/String;)V";

    /** The class with which a woven class's static initializer registers its tables. */
    public static final String TABLES_CLASS = "dev/weft/internal/woven/WovenMethods";
    public static final String REGISTER_METHOD = "register";
    /** The registration of format 10: the class's own {@code MethodHandles.lookup()} alone. */
    public static final String REGISTER_LOOKUP_DESCRIPTOR = "(Ljava/lang/invoke/MethodHandles$Lookup;)V";
    /** Formats 8 and 9's registrations, of the sites' landings and then of the table, which the runtime refuses. */
    public static final String REGISTER_WOVEN_SITES_METHOD = "registerWovenSites";
    /** Both of formats 8 and 9's registrations take the class's own {@code MethodHandles.lookup()} and a string. */
    public static final String REGISTER_DESCRIPTOR = "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;)V";
    /** The descriptor of format 1's registrations, which the runtime refuses with a message. */
    public static final String FORMAT_1_REGISTER_DESCRIPTOR = "(Ljava/lang/Class;Ljava/lang/String;)V";

    /** The woven engine's per-coroutine state, which every twin takes last. */
    public static final String FIBER_CLASS = "dev/weft/internal/woven/Fiber";
    /** The bootstrap of every call a twin makes. */
    public static final String LINKER_CLASS = "dev/weft/internal/woven/TwinLinker";
    public static final String LINK_METHOD = "link";

    /**
     * The bootstrap class that woven classes' lambdas and method references use instead of
     * {@code java/lang/invoke/LambdaMetafactory}: the same two methods, of the same names and
     * descriptors.
     */
    public static final String LAMBDAS_CLASS = "dev/weft/internal/woven/WovenLambdas";
    public static final String LAMBDA_METAFACTORY_CLASS = "java/lang/invoke/LambdaMetafactory";

    private WeavingContract() {
    }

    /** The first line of a site table of the current format. */
    public static String tableHeader() {
        return TABLE_HEADER + FORMAT_VERSION;
    }

    /** The descriptor of a value of {@code kind}, one of {@link #VALUE_KINDS}. */
    public static String valueDescriptor(String kind) {
        return switch (kind) {
            case "Int" -> "I";
            case "Float" -> "F";
            case "Long" -> "J";
            case "Double" -> "D";
            case "Object" -> "Ljava/lang/Object;";
            default -> throw new IllegalArgumentException("not a value kind: " + kind);
        };
    }

    /** {@code put<kind>}'s descriptor: the record, the slot, the value. */
    public static String putDescriptor(String kind) {
        return "(" + FRAME_RECORD + "I" + valueDescriptor(kind) + ")V";
    }

    /** {@code get<kind>}'s descriptor: the record, the slot; the value. */
    public static String getDescriptor(String kind) {
        return "(" + FRAME_RECORD + "I)" + valueDescriptor(kind);
    }

    /** {@code push<kind>}'s descriptor. */
    public static String pushDescriptor(String kind) {
        return "(" + valueDescriptor(kind) + ")V";
    }

    /** {@code resumed<kind>}'s descriptor. */
    public static String resumedDescriptor(String kind) {
        return "()" + valueDescriptor(kind);
    }

    /** {@code pop<kind>}'s descriptor. */
    public static String popDescriptor(String kind) {
        return "()" + valueDescriptor(kind);
    }
}
