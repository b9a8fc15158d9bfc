package dev.weft.sessions;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A stored value as text for an operator ({@link SessionStack}), made without calling any of the
 * application's code: no {@code toString}, {@code hashCode} or getter of a class that is not the
 * JDK's is called. Shown by their content: strings (quoted and escaped as a Java literal, cut
 * after {@value #MAX_STRING} characters), the boxed primitives, {@code BigInteger} and
 * {@code BigDecimal}, {@code UUID}, dates and times ({@code java.time} and {@code java.util.Date}),
 * enum constants by their class and name, and the JDK's collections, maps and arrays of at most
 * {@value #MAX_ELEMENTS} elements, {@value #MAX_DEPTH} levels deep; larger ones by their class
 * and size. Any other object by its class and its number of instance fields. Immutable; any thread.
 */
final class ValueText {

    /** The most characters of a string shown. */
    static final int MAX_STRING = 200;
    /** The most elements of a collection, map or array shown. */
    static final int MAX_ELEMENTS = 10;
    /** How deep collections inside collections are shown. */
    static final int MAX_DEPTH = 2;

    /** {@code value} as text; {@code session}, the stand-in of the session's coroutine, as such. */
    static String of(Object value, Object session) {
        return new ValueText(session).of(value, 0);
    }

    /** {@code value} as text, with no session's coroutine among what it refers to. */
    static String of(Object value) {
        return of(value, null);
    }

    private final Object session;

    private ValueText(Object session) {
        this.session = session;
    }

    private String of(Object value, int depth) {
        if (value == null) {
            return "null";
        }
        if (value == session) {
            return "(the session's coroutine)";
        }
        if (value instanceof String text) {
            return quoted(text, '"');
        }
        if (value instanceof Character c) {
            return quoted(String.valueOf(c), '\'');
        }
        if (isJdkValue(value)) {
            return value.toString();
        }
        if (value instanceof Enum<?> constant) {
            return constant.getDeclaringClass().getName() + "." + constant.name();
        }
        if (value.getClass().isArray()) {
            return array(value, depth);
        }
        if (isJdk(value.getClass()) && value instanceof Collection<?> collection) {
            return elements(value.getClass().getName(), collection.size(), collection.iterator(), depth, "[", "]");
        }
        if (isJdk(value.getClass()) && value instanceof Map<?, ?> map) {
            return elements(value.getClass().getName(), map.size(), map.entrySet().iterator(), depth, "{", "}");
        }
        return value.getClass().getName() + " (" + fields(value.getClass()) + ")";
    }

    /** Whether {@code value} is of a final JDK class whose text is its value. */
    private static boolean isJdkValue(Object value) {
        Class<?> type = value.getClass();
        return value instanceof Boolean || value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte || value instanceof Double || value instanceof Float
                || type == java.math.BigInteger.class || type == java.math.BigDecimal.class
                || type == java.util.UUID.class || type == java.util.Date.class
                || isJdk(type) && type.getPackageName().equals("java.time");
    }

    /** Whether {@code type} is the JDK's: loaded by the bootstrap or the platform class loader. */
    private static boolean isJdk(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    private String array(Object array, int depth) {
        int length = Array.getLength(array);
        String component = array.getClass().getComponentType().getName();
        if (length > MAX_ELEMENTS || depth >= MAX_DEPTH) {
            return component + "[" + length + "]";
        }
        List<String> shown = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            shown.add(of(Array.get(array, i), depth + 1));
        }
        return component + "[] {" + String.join(", ", shown) + "}";
    }

    private String elements(String type, int size, Iterator<?> elements, int depth, String open, String close) {
        String sized = type + " (" + size + (size == 1 ? " element" : " elements") + ")";
        if (size > MAX_ELEMENTS || depth >= MAX_DEPTH) {
            return sized;
        }
        List<String> shown = new ArrayList<>(size);
        while (elements.hasNext() && shown.size() < MAX_ELEMENTS) {
            Object element = elements.next();
            shown.add(element instanceof Map.Entry<?, ?> entry
                    ? of(entry.getKey(), depth + 1) + "=" + of(entry.getValue(), depth + 1)
                    : of(element, depth + 1));
        }
        return sized + " " + open + String.join(", ", shown) + close;
    }

    /** How many instance fields {@code type} and its superclasses declare, as text. */
    private static String fields(Class<?> type) {
        int count = 0;
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    count++;
                }
            }
        }
        return count == 1 ? "1 field" : count + " fields";
    }

    /** {@code text} between {@code quote}s, escaped as a Java literal, cut after {@link #MAX_STRING} characters. */
    private static String quoted(String text, char quote) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_STRING) + 2).append(quote);
        int shown = Math.min(text.length(), MAX_STRING);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c == quote) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append(quote);
        if (text.length() > shown) {
            out.append("... (").append(text.length()).append(" characters)");
        }
        return out.toString();
    }
}
