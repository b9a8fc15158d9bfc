package dev.weft;

import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.frames.SiteMatch;
import dev.weft.internal.woven.WovenMethods;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamException;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Weft's own byte format for a suspended coroutine's {@linkplain CoroutineFrame frames}, which
 * {@link CoroutineOutputStream} writes and {@link CoroutineInputStream} reads: methods, sites,
 * counts and primitive slots written directly, the objects in the slots through Java
 * serialization under the reader's {@link ReadFilter}. One coroutine is one record:
 *
 * <table class="striped">
 * <caption>A coroutine record (varint: unsigned LEB128, at most 5 bytes for an int and 10 for
 * a long; zigzag: a signed value as a varint of {@code (v << 1) ^ (v >> 63)}; utf: a varint
 * byte count, at most 65535, and that many bytes of UTF-8)</caption>
 * <thead><tr><th>field</th><th>encoding</th><th>meaning</th></tr></thead>
 * <tbody>
 * <tr><td>magic</td><td>4 bytes</td><td>{@code 0x57464346} ("WFCF"). A stream that starts
 *     with {@code 0xACED} is a Java object stream of {@code CoroutineFrame[]}, as Weft wrote
 *     before this format: it is refused, never read (there were no users to migrate)</td></tr>
 * <tr><td>version</td><td>1 byte</td><td>{@link #VERSION}, or {@link #VERSION_WITH_SITES} for a
 *     record that carries its frames' sites (below): the version of this layout</td></tr>
 * <tr><td>length</td><td>varint</td><td>the number of bytes that follow in the record, at
 *     most the reader's byte limit</td></tr>
 * <tr><td>woven format</td><td>varint</td><td>{@link WeavingContract#FRAMES_FORMAT_VERSION} of the
 *     writer: the frames' bcis and slots are in the terms of that weaving</td></tr>
 * <tr><td>build</td><td>8 bytes</td><td>the build fingerprint: a 64-bit hash over the method
 *     table below (each entry's class, name, descriptor and code fingerprint, in order) and
 *     the woven format, naming the code the frames belong to; not a protection against
 *     tampering (the seal is)</td></tr>
 * <tr><td>method count</td><td>varint</td><td>how many distinct methods the frames have</td></tr>
 * <tr><td>method table</td><td>per method: 4 utf</td><td>the binary name of its class, its
 *     name, its descriptor, and the weaver's fingerprint of its code (see
 *     {@link MethodReference}); each method once, in the order of first use</td></tr>
 * <tr><td>sites</td><td>version 2 only: a varint count, then per site: 2 varints, a utf, 3
 *     varints, a zigzag, then the locals, the stack and the never-null slots</td><td>what the
 *     writer's code said of each site a frame is at ({@link SiteMatch.SavedSite}): the index of
 *     its method in the table and its bci; the called method; its ordinal among its method's
 *     calls of that method, and their count; the monitors held; the source line; a varint count
 *     of locals, each its code and its source name (utf, empty without one); a varint count of
 *     stack slots, each its code (utf); a varint count of never-null slots, each its index.
 *     A reader that accepts changed code ({@link CoroutineInputStream#acceptChangedCode}) resumes
 *     a frame of a method whose fingerprint changed by {@link SiteMatch}'s rule, from these.
 *     A version 1 record carries none: a reader given its methods' former sites apart (a
 *     store keeps them once per build, {@link #sitesText}) matches by those</td></tr>
 * <tr><td>frame count</td><td>varint</td><td>how many frames, outermost first</td></tr>
 * <tr><td>frames</td><td>per frame: 4 varints, then one slot per local and stack slot</td><td>the
 *     index of its method in the table, its {@linkplain CoroutineFrame#bci bci}, its local
 *     count and its expression count; then each slot as a tag byte and its value:
 *     {@code 0} empty (zero and null: a dead slot), {@code 1} a primitive as a zigzag varint
 *     ({@code int}, {@code long}, {@code float} bits, ...), {@code 2} a primitive as 8 bytes
 *     (where the varint would be longer: {@code double} bits), {@code 3} the coroutine
 *     itself, {@code 4} an object: a varint index into the object table</td></tr>
 * <tr><td>object count</td><td>varint</td><td>how many distinct objects (by identity) the
 *     slots hold, the coroutine itself and null aside</td></tr>
 * <tr><td>object table</td><td>per object: a kind byte and its value</td><td>{@code 1} a
 *     {@code String} (utf, but up to the record's length; a string with surrogates is of kind
 *     10), {@code 2} an {@code Integer}, {@code 3}
 *     a {@code Long}, {@code 4} a {@code Short}, {@code 5} a {@code Byte}, {@code 6} a
 *     {@code Character}, {@code 7} a {@code Boolean} (0 or 1) (each a zigzag varint,
 *     range-checked), {@code 8} a {@code Float} (4 bytes), {@code 9} a {@code Double} (8
 *     bytes), {@code 10} any other object: the next object of the serialized objects</td></tr>
 * <tr><td>serialized length</td><td>varint</td><td>the length of what follows</td></tr>
 * <tr><td>serialized objects</td><td>bytes</td><td>a Java serialization stream holding the
 *     objects of kind 10, one {@code writeObject} each, in table order; the coroutine
 *     anywhere in them is written as a placeholder that the reader replaces by the coroutine
 *     it restores into, and a {@code Method} as a {@link MethodReference}, resolved and checked
 *     as the frames' methods are. Absent (length 0) when there are none</td></tr>
 * </tbody>
 * </table>
 *
 * Multi-byte fixed fields are big-endian. Nothing may follow the serialized objects within the
 * record. A sealed stream wraps the records in {@link Seal}'s envelope.
 *
 * <p>Reading checks the magic, the version, each length and count against what is left of
 * the record and against the reader's limits, the build fingerprint against the method table,
 * and resolves every method (see {@link MethodReference#resolve}) before it reads a single
 * object, then lets the filter know the slots' recorded classes. It never loads or initializes
 * a class named in the record before it is known to be woven. The frames it returns are then
 * validated by {@code deserialize}, as frames from anywhere are. Refusals, each naming what
 * was wrong: {@link StreamCorruptedException} for bytes that are not a record of this format
 * (wrong magic or version, truncated, lengths and counts out of range, varints too long, a
 * value out of its kind's range, an old Java object stream); {@link InvalidClassException}
 * for a class the filter refuses or a limit exceeded; {@link InvalidObjectException} for
 * frames of another build (another woven format, a method missing or changed).
 *
 * <p>Values of {@code String} and the boxed primitives in a slot are written directly:
 * neither {@link CoroutineOutputStream#replaceObject} nor
 * {@link CoroutineInputStream#resolveObject} sees them, and their identity with the same
 * instance inside a serialized object is not kept (they are value classes).
 *
 * <p>Stateless; any thread. Each record is written and read by one thread.
 */
final class FrameCodec {

    /*
     * Implementation notes: the writer encodes a record into a byte array before it writes it
     * out, so that a failure half-way writes nothing and the length can lead the record. The
     * reader takes the record's bytes whole (its length is bounded by the byte limit before a
     * byte is allocated, and they are read in steps, so a false length allocates nothing
     * large) and parses them with a cursor that checks every length against what is left.
     */

    static final int MAGIC = 0x57464346;
    static final int VERSION = 1;
    /** The version of a record that carries its frames' sites (written on request: they cost bytes). */
    static final int VERSION_WITH_SITES = 2;
    /** The first two bytes of a Java serialization stream: Weft's streams before this format. */
    static final int JAVA_STREAM_MAGIC = 0xACED;
    /** The longest class name, method name, descriptor or fingerprint a record may hold (the class file's limit). */
    static final int MAX_NAME_BYTES = 65535;

    static final int SLOT_EMPTY = 0;
    static final int SLOT_VARINT = 1;
    static final int SLOT_FIXED64 = 2;
    static final int SLOT_SELF = 3;
    static final int SLOT_OBJECT = 4;

    static final int KIND_STRING = 1;
    static final int KIND_INTEGER = 2;
    static final int KIND_LONG = 3;
    static final int KIND_SHORT = 4;
    static final int KIND_BYTE = 5;
    static final int KIND_CHARACTER = 6;
    static final int KIND_BOOLEAN = 7;
    static final int KIND_FLOAT = 8;
    static final int KIND_DOUBLE = 9;
    static final int KIND_SERIALIZED = 10;

    private FrameCodec() {
    }

    /** What the writer calls for each object Java serialization writes: the stream's {@code replaceObject}. */
    interface Replacer {
        Object replace(Object obj) throws IOException;
    }

    /** What the reader calls for each object Java serialization read: the stream's {@code resolveObject}. */
    interface Resolver {
        Object resolve(Object obj) throws IOException;
    }

    // ------------------------------------------------------------------ writing

    /**
     * Writes {@code frames}, captured from {@code coroutine}, as one record to {@code out}, with
     * their sites if {@code withSites}.
     */
    static void write(OutputStream out, CoroutineBase coroutine, CoroutineFrame[] frames, Replacer replacer,
            boolean withSites) throws IOException {
        Bytes body = new Bytes(256 + frames.length * 32);
        Map<Method, Integer> methodIndex = new HashMap<>();
        List<MethodReference> table = new ArrayList<>();
        for (CoroutineFrame frame : frames) {
            if (methodIndex.putIfAbsent(frame.method, table.size()) == null) {
                table.add(MethodReference.of(frame.method));
            }
        }
        body.varint(WeavingContract.FRAMES_FORMAT_VERSION);
        body.fixed64(build(table, WeavingContract.FRAMES_FORMAT_VERSION));
        body.varint(table.size());
        for (MethodReference method : table) {
            body.utf(method.className());
            body.utf(method.name());
            body.utf(method.descriptor());
            body.utf(method.hash() == null ? "" : method.hash());
        }
        if (withSites) {
            writeSites(body, frames, methodIndex);
        }
        IdentityHashMap<Object, Integer> objects = new IdentityHashMap<>();
        List<Object> objectTable = new ArrayList<>();
        body.varint(frames.length);
        for (CoroutineFrame frame : frames) {
            body.varint(methodIndex.get(frame.method));
            body.varint(frame.bci);
            body.varint(frame.localCount);
            body.varint(frame.expressionCount);
            for (int slot = 0; slot < frame.localCount + frame.expressionCount; slot++) {
                writeSlot(body, frame.scalarValues[slot], frame.objectValues[slot], coroutine, objects, objectTable);
            }
        }
        writeObjects(body, objectTable, coroutine, replacer);
        Bytes head = new Bytes(16);
        head.fixed32(MAGIC);
        head.u8(withSites ? VERSION_WITH_SITES : VERSION);
        head.varint(body.length);
        out.write(head.bytes, 0, head.length);
        out.write(body.bytes, 0, body.length);
    }

    /** The sites of {@code frames}, each once: those of methods whose class's table has them. */
    private static void writeSites(Bytes body, CoroutineFrame[] frames, Map<Method, Integer> methodIndex) {
        Map<List<Integer>, SiteMatch.SavedSite> sites = new LinkedHashMap<>();
        for (CoroutineFrame frame : frames) {
            List<Integer> key = List.of(methodIndex.get(frame.method), frame.bci);
            if (!sites.containsKey(key)) {
                WovenMethods.WovenMethod woven = WovenMethods.methodOf(frame.method);
                SiteTable.Site site = woven == null ? null : woven.sites().get(frame.bci);
                if (site != null) {
                    sites.put(key, SiteMatch.SavedSite.of(site, woven.sites().values()));
                }
            }
        }
        body.varint(sites.size());
        sites.forEach((key, site) -> {
            body.varint(key.get(0));
            body.varint(key.get(1));
            writeSite(body, site);
        });
    }

    /** One site's fields after its method and bci, as the layout gives them. */
    private static void writeSite(Bytes body, SiteMatch.SavedSite site) {
        body.utf(site.target());
        body.varint(site.ordinal());
        body.varint(site.calls());
        body.varint(site.monitors());
        body.zigzag(site.line());
        body.varint(site.locals().size());
        for (int slot = 0; slot < site.locals().size(); slot++) {
            body.utf(site.locals().get(slot));
            body.utf(slot < site.names().size() ? site.names().get(slot) : "");
        }
        body.varint(site.stack().size());
        site.stack().forEach(body::utf);
        body.varint(site.nonNull().size());
        site.nonNull().stream().sorted().forEach(body::varint);
    }

    /** The most bytes the sites of one method inflate to; more is refused as corrupt (a method's code has at most 64 KiB). */
    static final int MAX_SITES_BYTES = 1 << 24;

    /**
     * Every site of {@code method} as text ({@link CoroutineOutputStream#sitesOf}): the bytes
     * {@link WeavingContract#FRAMES_FORMAT_VERSION}, a varint count, then per site its bci and
     * its fields as a record's sites section has them; deflated (raw, RFC 1951: the sites of one
     * method repeat their called methods and types), in URL-safe Base64 without padding.
     */
    static String sitesText(Method method) {
        WovenMethods.WovenMethod woven = WovenMethods.methodOf(method);
        if (woven == null) {
            return null;
        }
        Collection<SiteTable.Site> sites = woven.sites().values();
        Bytes body = new Bytes(16 + sites.size() * 128);
        body.varint(WeavingContract.FRAMES_FORMAT_VERSION);
        body.varint(sites.size());
        for (SiteTable.Site site : sites) {
            body.varint(site.bci());
            writeSite(body, SiteMatch.SavedSite.of(site, sites));
        }
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        try {
            deflater.setInput(body.bytes, 0, body.length);
            deflater.finish();
            Bytes deflated = new Bytes(64 + body.length / 2);
            byte[] chunk = new byte[4096];
            while (!deflater.finished()) {
                deflated.write(chunk, 0, deflater.deflate(chunk));
            }
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(deflated.bytes,
                    deflated.length));
        } finally {
            deflater.end();
        }
    }

    /** {@code deflated} inflated, refused as corrupt if it is not raw deflate or inflates past {@link #MAX_SITES_BYTES}. */
    private static byte[] inflated(byte[] deflated, String what) throws StreamCorruptedException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(deflated);
            Bytes out = new Bytes(Math.min(MAX_SITES_BYTES, 4 * deflated.length + 64));
            byte[] chunk = new byte[4096];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw corrupt(what + " end inside their deflated bytes: they are cut");
                }
                if (out.length + n > MAX_SITES_BYTES) {
                    throw corrupt(what + " inflate to more than " + MAX_SITES_BYTES + " bytes, more than any method's");
                }
                out.write(chunk, 0, n);
            }
            if (inflater.getRemaining() != 0) {
                throw corrupt(what + " have " + inflater.getRemaining() + " byte(s) after their deflated bytes");
            }
            return Arrays.copyOf(out.bytes, out.length);
        } catch (DataFormatException e) {
            throw corrupt(what + " are not deflated bytes (" + e.getMessage() + ")");
        } finally {
            inflater.end();
        }
    }

    /**
     * The sites {@link #sitesText} wrote for {@code method} (named for the messages), by bci;
     * checked as a record is, the text coming from wherever the reader keeps it.
     */
    static Map<Integer, SiteMatch.SavedSite> readSitesText(String text, String method) throws IOException {
        String what = "the sites given for the former code of " + method;
        byte[] deflated;
        try {
            deflated = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw corrupt(what + " are not Weft's text of sites (" + e.getMessage() + ")");
        }
        Cursor in = new Cursor(inflated(deflated, what), what);
        int format = in.varint("the woven format");
        if (format != WeavingContract.FRAMES_FORMAT_VERSION) {
            throw new InvalidObjectException("cannot restore a frame of " + method + " on its changed code: the sites"
                    + " given for its former code are in the frames of woven format " + format + ", and this Weft's"
                    + " are those of format " + WeavingContract.FRAMES_FORMAT_VERSION);
        }
        int count = in.count("the site count", 9, MAX_NAME_BYTES);
        Map<Integer, SiteMatch.SavedSite> sites = new HashMap<>();
        for (int i = 0; i < count; i++) {
            int bci = in.varint("site " + i + "'s bci");
            if (sites.put(bci, readSite(in, "site " + i + "'s ")) != null) {
                throw in.corrupt("site " + i + " repeats bci " + bci);
            }
        }
        if (in.remaining() != 0) {
            throw in.corrupt(in.remaining() + " byte(s) follow the last site");
        }
        return sites;
    }

    /** One site's fields after its method and bci, each read as {@code what} and the field's name. */
    private static SiteMatch.SavedSite readSite(Cursor in, String what) throws IOException {
        String target = in.name(what + "called method");
        int ordinal = in.varint(what + "ordinal");
        int calls = in.varint(what + "call count");
        if (ordinal >= calls) {
            throw in.corrupt(what + "call is call " + ordinal + " of " + calls + " calls");
        }
        int monitors = in.varint(what + "monitor count");
        int line = (int) in.zigzagIn(what + "line", SiteTable.NO_LINE, 65535, "a line number");
        int localCount = in.count(what + "local count", 2, 65535);
        List<String> locals = new ArrayList<>(localCount);
        List<String> names = new ArrayList<>(localCount);
        for (int slot = 0; slot < localCount; slot++) {
            locals.add(in.name(what + "local " + slot + "'s code"));
            names.add(in.name(what + "local " + slot + "'s name"));
        }
        int stackCount = in.count(what + "stack count", 1, 65535);
        List<String> stack = new ArrayList<>(stackCount);
        for (int slot = 0; slot < stackCount; slot++) {
            stack.add(in.name(what + "stack slot " + slot + "'s code"));
        }
        int nonNullCount = in.count(what + "never-null count", 1, localCount + stackCount);
        Set<Integer> nonNull = new HashSet<>();
        for (int k = 0; k < nonNullCount; k++) {
            nonNull.add(in.varint(what + "never-null slot"));
        }
        return new SiteMatch.SavedSite(target, ordinal, calls, locals,
                names.stream().allMatch(String::isEmpty) ? List.of() : names, stack, nonNull, monitors, line);
    }

    private static void writeSlot(Bytes body, long scalar, Object value, CoroutineBase coroutine,
            IdentityHashMap<Object, Integer> objects, List<Object> objectTable) {
        if (value == coroutine) {
            body.u8(SLOT_SELF);
        } else if (value != null) {
            Integer index = objects.putIfAbsent(value, objectTable.size());
            if (index == null) {
                index = objectTable.size();
                objectTable.add(value);
            }
            body.u8(SLOT_OBJECT);
            body.varint(index);
        } else if (scalar == 0) {
            body.u8(SLOT_EMPTY);
        } else if (Bytes.varlong((scalar << 1) ^ (scalar >> 63)) <= 8) {
            body.u8(SLOT_VARINT);
            body.zigzag(scalar);
        } else {
            body.u8(SLOT_FIXED64);
            body.fixed64(scalar);
        }
    }

    private static void writeObjects(Bytes body, List<Object> objectTable, CoroutineBase coroutine, Replacer replacer)
            throws IOException {
        body.varint(objectTable.size());
        SlotObjectOutput serialized = null;
        Bytes serializedBytes = null;
        for (Object value : objectTable) {
            int kind = kindOf(value);
            body.u8(kind);
            switch (kind) {
                case KIND_STRING -> body.utf((String) value);
                case KIND_INTEGER -> body.zigzag((Integer) value);
                case KIND_LONG -> body.zigzag((Long) value);
                case KIND_SHORT -> body.zigzag((Short) value);
                case KIND_BYTE -> body.zigzag((Byte) value);
                case KIND_CHARACTER -> body.zigzag((Character) value);
                case KIND_BOOLEAN -> body.zigzag((Boolean) value ? 1 : 0);
                case KIND_FLOAT -> body.fixed32(Float.floatToRawIntBits((Float) value));
                case KIND_DOUBLE -> body.fixed64(Double.doubleToRawLongBits((Double) value));
                default -> {
                    if (serialized == null) {
                        serializedBytes = new Bytes(256);
                        serialized = new SlotObjectOutput(serializedBytes, coroutine, replacer);
                    }
                    serialized.writeObject(value);
                }
            }
        }
        if (serialized == null) {
            body.varint(0);
            return;
        }
        serialized.close();
        body.varint(serializedBytes.length);
        body.raw(serializedBytes.bytes, serializedBytes.length);
    }

    private static int kindOf(Object value) {
        Class<?> type = value.getClass();
        if (type == String.class) {
            return hasSurrogates((String) value) ? KIND_SERIALIZED : KIND_STRING;
        } else if (type == Integer.class) {
            return KIND_INTEGER;
        } else if (type == Long.class) {
            return KIND_LONG;
        } else if (type == Short.class) {
            return KIND_SHORT;
        } else if (type == Byte.class) {
            return KIND_BYTE;
        } else if (type == Character.class) {
            return KIND_CHARACTER;
        } else if (type == Boolean.class) {
            return KIND_BOOLEAN;
        } else if (type == Float.class) {
            return KIND_FLOAT;
        } else if (type == Double.class) {
            return KIND_DOUBLE;
        }
        return KIND_SERIALIZED;
    }

    /** Whether {@code s} has a surrogate char, which UTF-8 cannot carry unpaired: such a string goes through Java serialization. */
    private static boolean hasSurrogates(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The build fingerprint of a method table: a 64-bit hash of each entry's four strings, in
     * order, and of the woven format. Identifies the code; does not protect against tampering.
     */
    static long build(List<MethodReference> table, int wovenFormat) {
        long h = 0x5745465442554C44L ^ wovenFormat; // "WEFTBULD"
        for (MethodReference method : table) {
            h = mix(h, method.className());
            h = mix(h, method.name());
            h = mix(h, method.descriptor());
            h = mix(h, method.hash() == null ? "" : method.hash());
        }
        return h;
    }

    private static long mix(long h, String s) {
        long x = (h ^ s.hashCode() ^ ((long) s.length() << 32)) * 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 29);
    }

    /** Java serialization of the objects in the slots, the coroutine replaced by its placeholder. */
    private static final class SlotObjectOutput extends ObjectOutputStream {
        private final CoroutineBase coroutine;
        private final Replacer replacer;

        @SuppressWarnings("this-escape") // enabling replacement in the constructor is how object streams are meant to be extended
        SlotObjectOutput(OutputStream out, CoroutineBase coroutine, Replacer replacer) throws IOException {
            super(out);
            this.coroutine = coroutine;
            this.replacer = replacer;
            enableReplaceObject(true);
        }

        @Override
        protected Object replaceObject(Object obj) throws IOException {
            if (obj != null && obj == coroutine) {
                return new CoroutineOutputStream.SelfReference();
            }
            if (obj instanceof Method method) {
                return MethodReference.of(method);
            }
            return replacer.replace(obj);
        }
    }

    // ------------------------------------------------------------------ reading

    /**
     * Reads one record from {@code in} (its first four bytes, {@code start}, read already by
     * the caller if not null) into frames whose self references are {@code target}: every
     * method resolved and checked, every object read under {@code filter}; not yet validated
     * against the methods' code (that is {@code deserialize}'s). A frame of a method whose code
     * changed is refused, unless {@code changedCode} accepts it and the record carries its site,
     * or {@code changedCode} gives its method's former sites: {@link SiteMatch} finds it in the
     * new code.
     */
    static CoroutineFrame[] read(InputStream in, CoroutineBase target, ReadFilter filter, ClassLoader loader,
            Resolver resolver, ChangedCode changedCode) throws IOException {
        int[] version = new int[1];
        byte[] record = readRecord(in, filter, version);
        return new RecordReader(new Cursor(record), target, filter, loader, resolver, version[0] == VERSION_WITH_SITES,
                changedCode).frames();
    }

    /**
     * What a reader does with a frame of a method whose code changed: refuse it ({@link #REFUSED}),
     * or match it to the new code by the site its record carries or, for a record without
     * sites, by those {@code formerSites} gives (null if none).
     */
    record ChangedCode(boolean accepted, CoroutineInputStream.FormerSites formerSites) {
        static final ChangedCode REFUSED = new ChangedCode(false, null);

        /** Whether frames of a record, with its sites or not, may be of changed code. */
        boolean mayMatch(boolean recordHasSites) {
            return accepted && (recordHasSites || formerSites != null);
        }
    }

    /** The bytes of the next record: its header checked, its length within the limit; its version into {@code version}. */
    private static byte[] readRecord(InputStream in, ReadFilter filter, int[] version) throws IOException {
        byte[] start = in.readNBytes(5);
        if (start.length == 0) {
            throw corrupt("the stream holds no (further) coroutine: it ends before a record starts");
        }
        if (start.length < 5) {
            throw corrupt("the stream ends after " + start.length + " byte(s) of a record's 5-byte header: it is truncated");
        }
        int magic = (start[0] & 0xFF) << 24 | (start[1] & 0xFF) << 16 | (start[2] & 0xFF) << 8 | start[3] & 0xFF;
        if (magic != MAGIC) {
            throw corrupt(magic >>> 16 == JAVA_STREAM_MAGIC
                    ? "the stream is a Java object stream (it starts with 0xACED), as Weft wrote coroutines before"
                            + " its own format: such streams are no longer read (write the coroutine again)"
                    : "the stream is not a coroutine stream (it starts with " + String.format("0x%08x", magic)
                            + ", not 0x" + Integer.toHexString(MAGIC) + ")");
        }
        version[0] = start[4] & 0xFF;
        if (version[0] != VERSION && version[0] != VERSION_WITH_SITES) {
            throw corrupt("the record is in format version " + version[0] + ", and this Weft reads versions " + VERSION
                    + " and " + VERSION_WITH_SITES);
        }
        long length = readVarint(in);
        if (length > filter.maxBytes()) {
            throw new InvalidClassException("cannot read a coroutine: the record is " + length + " bytes long, more than"
                    + " the limit of " + filter.maxBytes() + " (raise it with limit(...))");
        }
        byte[] record = in.readNBytes((int) length);
        if (record.length < length) {
            throw corrupt("the stream ends after " + record.length + " of the record's " + length + " bytes: it is truncated");
        }
        return record;
    }

    /** A varint read from a stream: the record's length. */
    private static long readVarint(InputStream in) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = in.read();
            if (b < 0) {
                throw corrupt("the stream ends inside the record's length: it is truncated");
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (value > Integer.MAX_VALUE) {
                    throw corrupt("the record's length " + value + " is beyond any record's");
                }
                return value;
            }
        }
        throw corrupt("the record's length is a varint of more than 5 bytes");
    }

    private static StreamCorruptedException corrupt(String why) {
        return new StreamCorruptedException("cannot read a coroutine: " + why);
    }

    /** One record's parse: header, methods, frames, objects, in the order of the layout. */
    private static final class RecordReader {
        private final Cursor in;
        private final CoroutineBase target;
        private final ReadFilter filter;
        private final ClassLoader loader;
        private final Resolver resolver;
        private final boolean hasSites;
        private final ChangedCode changedCode;
        /** Each frame's method, as its index in the table. */
        private int[] frameMethods;
        /** The former sites of changed methods, by method index, each read once from {@link ChangedCode#formerSites}. */
        private final Map<Integer, Map<Integer, SiteMatch.SavedSite>> formerSites = new HashMap<>();

        RecordReader(Cursor in, CoroutineBase target, ReadFilter filter, ClassLoader loader, Resolver resolver,
                boolean hasSites, ChangedCode changedCode) {
            this.in = in;
            this.target = target;
            this.filter = filter;
            this.loader = loader;
            this.resolver = resolver;
            this.hasSites = hasSites;
            this.changedCode = changedCode;
        }

        CoroutineFrame[] frames() throws IOException {
            int wovenFormat = in.varint("the woven format");
            long build = in.fixed64("the build fingerprint");
            if (wovenFormat != WeavingContract.FRAMES_FORMAT_VERSION) {
                throw new InvalidObjectException("cannot read a coroutine: its frames are of build "
                        + Long.toHexString(build) + ", in the frames of woven format " + wovenFormat
                        + ", and this Weft's frames are those of format " + WeavingContract.FRAMES_FORMAT_VERSION
                        + ": its sites and slots mean other things here");
            }
            List<MethodReference> table = methodTable();
            if (build(table, wovenFormat) != build) {
                throw in.corrupt("the method table does not match the build fingerprint "
                        + Long.toHexString(build) + " of the record's header");
            }
            Map<List<Integer>, SiteMatch.SavedSite> sites = hasSites ? sites(table.size()) : Map.of();
            boolean[] changed = new boolean[table.size()];
            Method[] methods = resolve(table, build, changed);
            List<int[]> objectSlots = new ArrayList<>();
            CoroutineFrame[] frames = frameList(methods, objectSlots);
            Object[] objects = objects(methods);
            for (int[] at : objectSlots) {
                if (at[2] >= objects.length) {
                    throw in.corrupt("frame " + at[0] + " slot " + at[1] + " refers to object " + at[2] + " of "
                            + objects.length);
                }
                frames[at[0]].objectValues[at[1]] = objects[at[2]];
            }
            if (in.remaining() != 0) {
                throw in.corrupt(in.remaining() + " byte(s) follow the serialized objects within the record");
            }
            for (int f = 0; f < frames.length; f++) {
                int method = frameMethods[f];
                if (changed[method]) {
                    SiteMatch.SavedSite saved = hasSites ? sites.get(List.of(method, frames[f].bci))
                            : formerSite(method, table.get(method), frames[f].bci, build);
                    frames[f] = onChangedCode(frames[f], saved, table.get(method), build);
                }
            }
            return frames;
        }

        /** The sites the record carries, by method index and bci. */
        private Map<List<Integer>, SiteMatch.SavedSite> sites(int methodCount) throws IOException {
            int count = in.count("the site count", 9, filter.maxArrayLength());
            Map<List<Integer>, SiteMatch.SavedSite> sites = new HashMap<>();
            for (int i = 0; i < count; i++) {
                String what = "site " + i + "'s ";
                int method = in.varint(what + "method");
                if (method >= methodCount) {
                    throw in.corrupt("site " + i + " names method " + method + " of a table of " + methodCount);
                }
                int bci = in.varint(what + "bci");
                SiteMatch.SavedSite site = readSite(in, what);
                if (sites.put(List.of(method, bci), site) != null) {
                    throw in.corrupt("site " + i + " repeats method " + method + "'s bci " + bci);
                }
            }
            return sites;
        }

        /**
         * The site at {@code bci} of the former code of the table's method {@code index}
         * ({@code reference}), as the reader's {@link ChangedCode#formerSites} gives it.
         */
        private SiteMatch.SavedSite formerSite(int index, MethodReference reference, int bci, long build)
                throws IOException {
            String method = reference.className() + "." + reference.name() + reference.descriptor();
            Map<Integer, SiteMatch.SavedSite> sites = formerSites.get(index);
            if (sites == null) {
                String text = changedCode.formerSites().sitesOf(reference.className(),
                        reference.name() + reference.descriptor(), reference.hash());
                if (text == null) {
                    throw new InvalidObjectException("cannot restore a frame of " + method + ": its code changed since"
                            + " the coroutine was written, and the sites of its former code (fingerprint "
                            + reference.hash() + ") are not known here (the stream is of build " + Long.toHexString(build)
                            + ")");
                }
                sites = readSitesText(text, method);
                formerSites.put(index, sites);
            }
            SiteMatch.SavedSite site = sites.get(bci);
            if (site == null) {
                throw new InvalidObjectException("cannot restore a frame of " + method + " on its changed code: the"
                        + " sites given for its former code (fingerprint " + reference.hash() + ") have none at bci "
                        + bci + ", where the frame is (the stream is of build " + Long.toHexString(build) + ")");
            }
            return site;
        }

        /**
         * {@code frame}, of a method whose code changed since {@code saved} was written there,
         * as a frame of the new code ({@link SiteMatch}); refused if the record has no site for
         * it or the new code cannot take it.
         */
        private CoroutineFrame onChangedCode(CoroutineFrame frame, SiteMatch.SavedSite saved, MethodReference reference,
                long build) throws IOException {
            String method = reference.className() + "." + reference.name() + reference.descriptor();
            if (saved == null) {
                throw new InvalidObjectException("cannot restore a frame of " + method + ": its code changed since the"
                        + " coroutine was written, and the stream does not carry the frame's site to find it in the new code"
                        + " (write it with recordSites()) (the stream is of build " + Long.toHexString(build) + ")");
            }
            if (frame.localCount != saved.locals().size() || frame.expressionCount != saved.stack().size()) {
                String sizes = "a frame of " + method + " has " + frame.localCount + " locals and "
                        + frame.expressionCount + " stack slots, and the site ";
                String given = saved.locals().size() + " and " + saved.stack().size();
                if (hasSites) {
                    throw in.corrupt(sizes + "the record gives it " + given);
                }
                throw new InvalidObjectException("cannot restore " + sizes + "the sites given for its former code"
                        + " (fingerprint " + reference.hash() + ") have there " + given + ": they are not that code's"
                        + " (the stream is of build " + Long.toHexString(build) + ")");
            }
            WovenMethods.WovenMethod woven = WovenMethods.methodOf(frame.method);
            WovenMethods table = WovenMethods.of(frame.method.getDeclaringClass());
            try {
                return SiteMatch.match(frame, saved, woven.sites().values(), table == null ? null : table.sourceFile());
            } catch (SiteMatch.Mismatch e) {
                InvalidObjectException refused = new InvalidObjectException("cannot restore a frame of " + method
                        + " on its changed code: " + e.getMessage() + " (the stream is of build " + Long.toHexString(build)
                        + ")");
                refused.initCause(e);
                throw refused;
            }
        }

        private List<MethodReference> methodTable() throws IOException {
            int count = in.count("the method count", 4, filter.maxArrayLength());
            List<MethodReference> table = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                table.add(new MethodReference(in.name("method " + i + "'s class"), in.name("method " + i + "'s name"),
                        in.name("method " + i + "'s descriptor"), emptyAsNull(in.name("method " + i + "'s fingerprint"))));
            }
            return table;
        }

        private static String emptyAsNull(String s) {
            return s.isEmpty() ? null : s;
        }

        /**
         * Every method, checked to be woven with the code it had, or, if the reader accepts
         * changed code and the record carries sites, noted in {@code changed}; the filter learns
         * its slots' classes.
         */
        private Method[] resolve(List<MethodReference> table, long build, boolean[] changed) throws IOException {
            ClassLoader classes = loader != null ? loader : Thread.currentThread().getContextClassLoader();
            Method[] methods = new Method[table.size()];
            Map<String, Class<?>> woven = new HashMap<>();
            for (int i = 0; i < methods.length; i++) {
                MethodReference reference = table.get(i);
                try {
                    reference.checkFingerprintGiven();
                    Class<?> type = woven.get(reference.className());
                    if (type == null) {
                        type = reference.wovenClass(classes);
                        woven.put(reference.className(), type);
                    }
                    boolean mayChange = changedCode.mayMatch(hasSites);
                    methods[i] = reference.in(type, mayChange);
                    changed[i] = mayChange && reference.changedIn(type);
                } catch (InvalidObjectException | RuntimeException | LinkageError e) {
                    MethodReference m = table.get(i);
                    String why = e instanceof InvalidObjectException ? e.getMessage()
                            : "cannot restore a frame of " + m.className() + "." + m.name() + m.descriptor()
                                    + ": its class cannot be loaded here (" + e + ")";
                    InvalidObjectException other = new InvalidObjectException(why + " (the stream is of build "
                            + Long.toHexString(build) + ")");
                    other.initCause(e);
                    throw other;
                }
            }
            return methods;
        }

        /** The frames, their object slots left null and listed in {@code objectSlots} as (frame, slot, object). */
        private CoroutineFrame[] frameList(Method[] methods, List<int[]> objectSlots) throws IOException {
            int count = in.count("the frame count", 5, filter.maxArrayLength());
            CoroutineFrame[] frames = new CoroutineFrame[count];
            frameMethods = new int[count];
            for (int f = 0; f < count; f++) {
                in.frame = f;
                in.slot = -1;
                int method = in.varint("its method");
                if (method >= methods.length) {
                    throw in.corrupt("frame " + f + " names method " + method + " of a table of " + methods.length);
                }
                int bci = in.varint("its bci");
                int locals = in.count("its local count", 1, filter.maxArrayLength());
                int stack = in.count("its expression count", 1, filter.maxArrayLength());
                int slots = locals + stack;
                if ((long) locals + stack > in.remaining()) {
                    throw in.corrupt("frame " + f + " says it has " + ((long) locals + stack) + " slots, more than the "
                            + in.remaining() + " bytes left");
                }
                long[] scalars = new long[slots];
                Object[] values = new Object[slots];
                for (int s = 0; s < slots; s++) {
                    readSlot(f, s, scalars, values, objectSlots);
                }
                frames[f] = new CoroutineFrame(methods[method], bci, locals, stack, scalars, values);
                frameMethods[f] = method;
            }
            in.frame = -1;
            in.slot = -1;
            return frames;
        }

        private void readSlot(int frame, int slot, long[] scalars, Object[] values, List<int[]> objectSlots)
                throws IOException {
            in.slot = slot;
            int tag = in.u8("its tag");
            switch (tag) {
                case SLOT_EMPTY -> { }
                case SLOT_VARINT -> scalars[slot] = in.zigzag("its value");
                case SLOT_FIXED64 -> scalars[slot] = in.fixed64("its value");
                case SLOT_SELF -> values[slot] = target;
                case SLOT_OBJECT -> objectSlots.add(new int[] {frame, slot, in.varint("its object")});
                default -> throw in.corrupt("frame " + frame + " slot " + slot + " has tag " + tag + ", which no slot has");
            }
        }

        private Object[] objects(Method[] methods) throws IOException {
            int count = in.count("the object count", 1, filter.maxReferences());
            Object[] objects = new Object[count];
            List<Integer> serialized = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                in.object = i;
                int kind = in.u8("its kind");
                String what = "its value";
                objects[i] = switch (kind) {
                    case KIND_STRING -> in.utf(what);
                    case KIND_INTEGER -> (int) in.zigzagIn(what, Integer.MIN_VALUE, Integer.MAX_VALUE, "an Integer");
                    case KIND_LONG -> in.zigzag(what);
                    case KIND_SHORT -> (short) in.zigzagIn(what, Short.MIN_VALUE, Short.MAX_VALUE, "a Short");
                    case KIND_BYTE -> (byte) in.zigzagIn(what, Byte.MIN_VALUE, Byte.MAX_VALUE, "a Byte");
                    case KIND_CHARACTER -> (char) in.zigzagIn(what, Character.MIN_VALUE, Character.MAX_VALUE, "a Character");
                    case KIND_BOOLEAN -> in.zigzagIn(what, 0, 1, "a Boolean") == 1;
                    case KIND_FLOAT -> Float.intBitsToFloat((int) in.fixed32(what));
                    case KIND_DOUBLE -> Double.longBitsToDouble(in.fixed64(what));
                    case KIND_SERIALIZED -> {
                        serialized.add(i);
                        yield null;
                    }
                    default -> throw in.corrupt(what + " has kind " + kind + ", which no object has");
                };
            }
            in.object = -1;
            if (!serialized.isEmpty()) {
                for (Method method : methods) {
                    filter.allowSlotsOf(method); // the serialized objects may be of the classes of their slots
                }
            }
            readSerialized(objects, serialized);
            return objects;
        }

        private void readSerialized(Object[] objects, List<Integer> serialized) throws IOException {
            int length = in.count("the serialized objects' length", 1, Integer.MAX_VALUE);
            if (serialized.isEmpty() != (length == 0)) {
                throw in.corrupt("the serialized objects' length is " + length + " for " + serialized.size() + " object(s)");
            }
            if (serialized.isEmpty()) {
                return;
            }
            int from = in.skip(length, "the serialized objects");
            try (SlotObjectInput objectsIn = new SlotObjectInput(
                    new ByteArrayInputStream(in.bytes, from, length), target, filter, loader, resolver)) {
                for (int i : serialized) {
                    objects[i] = objectsIn.readObject();
                }
            } catch (InvalidObjectException e) {
                throw e;
            } catch (InvalidClassException e) {
                throw refused(e);
            } catch (IOException | ClassNotFoundException | RuntimeException e) {
                StreamCorruptedException corrupt = corrupt("its serialized objects are not readable: " + e);
                corrupt.initCause(e);
                throw corrupt;
            }
        }

        /** {@code e}, or the filter's refusal in its place, naming the class or limit and how to allow it. */
        private ObjectStreamException refused(InvalidClassException e) {
            String why = filter.refusal();
            if (why == null) {
                return e;
            }
            InvalidClassException refused = new InvalidClassException("cannot read a coroutine: " + why);
            refused.initCause(e);
            return refused;
        }
    }

    /** Java deserialization of the objects in the slots, under the filter, the placeholder resolved to the target. */
    private static final class SlotObjectInput extends ObjectInputStream {
        private final CoroutineBase target;
        private final ClassLoader loader;
        private final Resolver resolver;

        @SuppressWarnings("this-escape") // enabling resolution in the constructor is how object streams are meant to be extended
        SlotObjectInput(InputStream in, CoroutineBase target, ReadFilter filter, ClassLoader loader, Resolver resolver)
                throws IOException {
            super(in);
            this.target = target;
            this.loader = loader;
            this.resolver = resolver;
            setObjectInputFilter(filter);
            enableResolveObject(true);
        }

        @Override
        protected Object resolveObject(Object obj) throws IOException {
            if (obj instanceof CoroutineOutputStream.SelfReference) {
                return target;
            }
            if (obj instanceof MethodReference reference) {
                return reference.resolve(loader != null ? loader : Thread.currentThread().getContextClassLoader());
            }
            return resolver.resolve(obj);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // primitives and the like: as the default does
                }
            }
            return super.resolveClass(desc);
        }
    }

    // ------------------------------------------------------------------ bytes

    /** A growable byte array that the writer encodes into. */
    private static final class Bytes extends OutputStream {
        byte[] bytes;
        int length;

        Bytes(int capacity) {
            bytes = new byte[capacity];
        }

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }

        @Override
        public void write(int b) {
            u8(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, length, len);
            length += len;
        }

        void raw(byte[] b, int len) {
            write(b, 0, len);
        }

        void u8(int b) {
            ensure(1);
            bytes[length++] = (byte) b;
        }

        void varint(long v) {
            ensure(10);
            while ((v & ~0x7FL) != 0) {
                bytes[length++] = (byte) (v & 0x7F | 0x80);
                v >>>= 7;
            }
            bytes[length++] = (byte) v;
        }

        void zigzag(long v) {
            varint((v << 1) ^ (v >> 63));
        }

        /** How many bytes the varint of {@code v} takes. */
        static int varlong(long v) {
            return v == 0 ? 1 : (63 - Long.numberOfLeadingZeros(v)) / 7 + 1;
        }

        void fixed32(int v) {
            ensure(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                bytes[length++] = (byte) (v >>> shift);
            }
        }

        void fixed64(long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes[length++] = (byte) (v >>> shift);
            }
        }

        void utf(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            varint(utf8.length);
            raw(utf8, utf8.length);
        }
    }

    /** Reads a record's bytes; every read is checked against what is left, and names what it was reading. */
    private static final class Cursor {
        private static final String RECORD = "the record";
        final byte[] bytes;
        private int position;
        /** Where in the record the reads are, for the messages: a frame, its slot, an object; -1 if not in one. */
        int frame = -1;
        int slot = -1;
        int object = -1;

        /** What the bytes are, for the messages: "the record", unless they are sites given apart from one. */
        private final String of;

        Cursor(byte[] bytes) {
            this(bytes, RECORD);
        }

        Cursor(byte[] bytes, String of) {
            this.bytes = bytes;
            this.of = of;
        }

        int remaining() {
            return bytes.length - position;
        }

        /** {@code what}, said of the frame, slot or object being read; the message is made only on a refusal. */
        private String where(String what) {
            if (frame >= 0) {
                return "frame " + frame + (slot >= 0 ? " slot " + slot : "") + ": " + what;
            }
            return object >= 0 ? "object " + object + ": " + what : what;
        }

        StreamCorruptedException corrupt(String why) {
            return FrameCodec.corrupt(why + " (at byte " + position + " of " + of + ")");
        }

        private void need(int n, String what) throws StreamCorruptedException {
            if (remaining() < n) {
                throw corrupt(of + " ends inside " + where(what) + ": it is truncated or a length in it is wrong");
            }
        }

        int u8(String what) throws StreamCorruptedException {
            need(1, what);
            return bytes[position++] & 0xFF;
        }

        long fixed32(String what) throws StreamCorruptedException {
            need(4, what);
            long v = 0;
            for (int i = 0; i < 4; i++) {
                v = v << 8 | bytes[position++] & 0xFF;
            }
            return v;
        }

        long fixed64(String what) throws StreamCorruptedException {
            need(8, what);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = v << 8 | bytes[position++] & 0xFF;
            }
            return v;
        }

        long varlong(String what) throws StreamCorruptedException {
            long value = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                int b = u8(what);
                if (shift == 63 && (b & 0x7E) != 0) {
                    throw corrupt(where(what) + " is a varint beyond 64 bits");
                }
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
            throw corrupt(where(what) + " is a varint of more than 10 bytes");
        }

        /** A non-negative int varint, at most 5 bytes. */
        int varint(String what) throws StreamCorruptedException {
            int start = position;
            long value = varlong(what);
            if (position - start > 5 || value > Integer.MAX_VALUE || value < 0) {
                throw corrupt(where(what) + " is " + Long.toUnsignedString(value) + ", beyond the int it must be");
            }
            return (int) value;
        }

        long zigzag(String what) throws StreamCorruptedException {
            long v = varlong(what);
            return (v >>> 1) ^ -(v & 1);
        }

        long zigzagIn(String what, long min, long max, String kind) throws StreamCorruptedException {
            long v = zigzag(what);
            if (v < min || v > max) {
                throw corrupt(where(what) + " is " + v + ", out of the range of " + kind);
            }
            return v;
        }

        /**
         * A count of things each at least {@code minBytes} long: at most what is left of the
         * record could hold, and at most {@code limit} (the reader's, refused as a limit).
         */
        int count(String what, int minBytes, long limit) throws IOException {
            int count = varint(what);
            if (count > limit) {
                throw new InvalidClassException("cannot read a coroutine: " + where(what) + " is " + count + ", more than the"
                        + " limit of " + limit + (of.equals(RECORD) ? " (raise it with limit(...))" : ", in " + of));
            }
            if ((long) count * minBytes > remaining()) {
                throw corrupt(where(what) + " is " + count + ", more than the " + remaining() + " bytes left could hold");
            }
            return count;
        }

        String utf(String what) throws IOException {
            int length = count(what + "'s length", 1, Integer.MAX_VALUE);
            String s = new String(bytes, position, length, StandardCharsets.UTF_8);
            position += length;
            return s;
        }

        /** A class name, method name, descriptor or fingerprint: a string of at most {@link #MAX_NAME_BYTES}. */
        String name(String what) throws IOException {
            int length = count(what + "'s length", 1, Integer.MAX_VALUE);
            if (length > MAX_NAME_BYTES) {
                throw corrupt(where(what) + " is " + length + " bytes long, longer than any name in a class file");
            }
            String s = new String(bytes, position, length, StandardCharsets.UTF_8);
            position += length;
            return s;
        }

        /** Skips {@code n} bytes, checked to be there; returns where they start. */
        int skip(int n, String what) throws StreamCorruptedException {
            need(n, what);
            int from = position;
            position += n;
            return from;
        }
    }
}
