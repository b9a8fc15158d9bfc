package dev.weft.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.ClassReader;

/**
 * The bytecode sizes (the {@code Code} attribute's {@code code_length}) of the methods of a set
 * of class files, against the two limits of HotSpot's inliner on bytecode size: a callee of up
 * to {@value #MAX_INLINE_SIZE} bytes is inlined at any call site, one of up to
 * {@value #FREQ_INLINE_SIZE} at a hot one ({@code -XX:MaxInlineSize}, {@code -XX:FreqInlineSize}
 * on x86-64). Filled by one thread, then read.
 */
final class MethodSizes {

    static final int MAX_INLINE_SIZE = 35;
    static final int FREQ_INLINE_SIZE = 325;

    /** The largest overload of each method, by {@code internal/ClassName.method}. */
    private final Map<String, Integer> largest = new HashMap<>();
    private final List<Integer> sizes = new ArrayList<>();

    /** Adds the methods of every class file of {@code jar} (multi-release versions included). */
    void addJar(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : zip.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
                try (InputStream in = zip.getInputStream(entry)) {
                    addClass(in.readAllBytes());
                }
            }
        }
    }

    /** Adds the methods with code of one class file. */
    void addClass(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        char[] buffer = new char[reader.getMaxStringLength()];
        int offset = reader.header + 6; // access flags, this class, super class
        offset += 2 + 2 * reader.readUnsignedShort(offset); // interfaces
        offset = skipMembers(reader, offset); // fields
        int methods = reader.readUnsignedShort(offset);
        offset += 2;
        for (int m = 0; m < methods; m++) {
            String name = reader.readUTF8(offset + 2, buffer);
            int attributes = reader.readUnsignedShort(offset + 6);
            offset += 8;
            for (int a = 0; a < attributes; a++) {
                if (reader.readUTF8(offset, buffer).equals("Code")) {
                    add(reader.getClassName() + "." + name, reader.readInt(offset + 10));
                }
                offset += 6 + reader.readInt(offset + 2);
            }
        }
    }

    private static int skipMembers(ClassReader reader, int offset) {
        int members = reader.readUnsignedShort(offset);
        offset += 2;
        for (int i = 0; i < members; i++) {
            int attributes = reader.readUnsignedShort(offset + 6);
            offset += 8;
            for (int a = 0; a < attributes; a++) {
                offset += 6 + reader.readInt(offset + 2);
            }
        }
        return offset;
    }

    private void add(String method, int codeLength) {
        sizes.add(codeLength);
        largest.merge(method, codeLength, Math::max);
    }

    /** The methods with code. */
    int methods() {
        return sizes.size();
    }

    /** Their bytecode, in bytes. */
    long codeBytes() {
        return sizes.stream().mapToLong(Integer::longValue).sum();
    }

    /** How many are larger than {@code limit} bytes. */
    long over(int limit) {
        return sizes.stream().filter(s -> s > limit).count();
    }

    /** The size of the largest overload of {@code method} ({@code internal/ClassName.method}), or -1 if there is none. */
    int largest(String method) {
        return largest.getOrDefault(method, -1);
    }
}
