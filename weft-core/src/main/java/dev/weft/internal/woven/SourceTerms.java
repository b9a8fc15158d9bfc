package dev.weft.internal.woven;

import dev.weft.internal.contract.SiteTable;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * How refusals and frames name a place in the coroutine's code, as its source says it: the
 * method as a stack trace element prints it, {@code com.example.flows.Counter.run(Counter.java:14)},
 * and a local by its variable's name, {@code local worker}, or {@code this}; the JVM's terms
 * (bytecode index, slot) follow in a message, after these. The line and the names are those the
 * weaver recorded in the class's site table ({@link SiteTable}), so a class that is not woven, or
 * was compiled without them, has a place of less detail ({@code Counter.run(Unknown Source)})
 * and locals known by their slot alone.
 *
 * <p>Also the one text that tells how to weave a class that is not ({@link #howToWeave}).
 *
 * <p>Stateless; any thread. Never initializes a class: it reads only tables already registered.
 */
public final class SourceTerms {

    private SourceTerms() {
    }

    /**
     * {@code className.methodName(sourceFile:line)}, as {@link StackTraceElement#toString()}
     * has it: {@code (sourceFile)} without a line, {@code (Unknown Source)} without a file.
     */
    public static String place(String className, String methodName, String sourceFile, int line) {
        String where = sourceFile == null ? "Unknown Source" : line >= 0 ? sourceFile + ":" + line : sourceFile;
        return className + "." + methodName + "(" + where + ")";
    }

    /** The place of a frame of {@code method} suspended at site {@code bci}, from its class's site table. */
    public static String place(Method method, int bci) {
        StackTraceElement element = element(method, bci);
        return place(element.getClassName(), element.getMethodName(), element.getFileName(), element.getLineNumber());
    }

    /**
     * The place of a frame of {@code method} suspended at site {@code bci} as a stack trace
     * element: its class, method, source file and line from the class's site table, where known.
     */
    public static StackTraceElement element(Method method, int bci) {
        Class<?> type = method.getDeclaringClass();
        WovenMethods table = WovenMethods.registered(type);
        SiteTable.Site site = siteOf(table, method, bci);
        return new StackTraceElement(type.getName(), method.getName(), table == null ? null : table.sourceFile(),
                site == null ? SiteTable.NO_LINE : site.line());
    }

    /**
     * The source name of slot {@code slot} of a frame of {@code method} at site {@code bci} that
     * has {@code localCount} locals: {@code this} for slot 0 of an instance method, a local's
     * name where the site table records it; null for a value on the operand stack and a local
     * without a recorded name.
     */
    public static String nameOf(Method method, int bci, int localCount, int slot) {
        if (slot >= localCount) {
            return null;
        }
        if (slot == 0 && !Modifier.isStatic(method.getModifiers())) {
            return "this";
        }
        SiteTable.Site site = siteOf(WovenMethods.registered(method.getDeclaringClass()), method, bci);
        return site == null ? null : site.nameOf(slot);
    }

    /**
     * The type the weaver recorded for slot {@code slot} (locals first) of a frame of
     * {@code method} at site {@code bci} that has {@code localCount} locals, as a field
     * descriptor: {@code I}, {@code Ljava/lang/String;}, {@code [J}; an int slot that may hold
     * a byte or a char, or a short or a char, as {@code I}. Null where the slot is dead, is the
     * second half of a long or double, or the site is not in a registered table.
     */
    public static String typeOf(Method method, int bci, int localCount, int slot) {
        SiteTable.Site site = siteOf(WovenMethods.registered(method.getDeclaringClass()), method, bci);
        if (site == null || slot < 0) {
            return null;
        }
        java.util.List<String> codes = slot < localCount ? site.locals() : site.stack();
        int index = slot < localCount ? slot : slot - localCount;
        if (index >= codes.size()) {
            return null;
        }
        String code = codes.get(index);
        int receiverMark = code.indexOf(SiteTable.RECEIVER_IN);
        if (receiverMark > 0) {
            code = code.substring(0, receiverMark);
        }
        if (code.equals(SiteTable.DEAD) || code.equals(SiteTable.SECOND_HALF)) {
            return null;
        }
        return code.length() == 1 && (code.charAt(0) == SiteTable.BYTE_AND_CHAR
                || code.charAt(0) == SiteTable.SHORT_AND_CHAR) ? "I" : code;
    }

    /** The source line of site {@code bci} of {@code method}, or {@link SiteTable#NO_LINE} if unknown. */
    public static int lineOf(Method method, int bci) {
        SiteTable.Site site = siteOf(WovenMethods.registered(method.getDeclaringClass()), method, bci);
        return site == null ? SiteTable.NO_LINE : site.line();
    }

    private static SiteTable.Site siteOf(WovenMethods table, Method method, int bci) {
        WovenMethods.WovenMethod woven = table == null ? null
                : table.method(method.getName() + WovenFrames.descriptorOf(method));
        return woven == null ? null : woven.sites().get(bci);
    }

    /**
     * How the source names local {@code slot} of a frame of {@code method} at site {@code bci}:
     * {@code this} for slot 0 of an instance method, {@code local name} where the site table
     * records the name, and {@code local slot n} where it does not.
     */
    public static String local(Method method, int bci, int slot) {
        String name = nameOf(method, bci, slot + 1, slot);
        return name == null ? "local slot " + slot : name.equals("this") ? name : "local " + name;
    }

    /**
     * How the source names slot {@code slot} of a frame of {@code method} at site {@code bci}
     * that has {@code localCount} locals (its slots numbered locals first, as
     * {@code CoroutineFrame}'s are): {@link #local} for a local, {@code stack slot n} for a value
     * on its operand stack, which has no name.
     */
    public static String slot(Method method, int bci, int localCount, int slot) {
        return slot < localCount ? local(method, bci, slot) : "stack slot " + slot;
    }

    /**
     * The JVM's terms for that slot, which follow its name in a message: {@code bci 23, local slot 3};
     * {@code bci 23} alone where the name is the slot's already.
     */
    public static String slotDetail(Method method, int bci, int localCount, int slot) {
        String jvm = (slot < localCount ? "local slot " : "stack slot ") + slot;
        return "bci " + bci + (slot(method, bci, localCount, slot).equals(jvm) ? "" : ", " + jvm);
    }

    /**
     * How to weave {@code type}, which is not woven, with each of the three tools, naming its
     * package (the class itself in the unnamed package): the Maven plugin's configuration, the
     * agent's option and the command line; that it never is, for a class of the JDK. Every
     * message about a class that is not woven ends with this.
     */
    public static String howToWeave(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader()
                ? "it is JDK code, which is never woven"
                : howToWeave(type.getName());
    }

    /** {@link #howToWeave(Class)} for a class known by its binary name only, which is not the JDK's. */
    public static String howToWeave(String className) {
        int dot = className.lastIndexOf('.');
        String selection = dot < 0 ? className : className.substring(0, dot);
        return "weave it with the Maven plugin (<package>" + selection + "</package> in weft-maven-plugin's"
                + " <packages>), the agent (-javaagent:weft-weaver-VERSION-agent.jar=" + selection
                + ") or the command line (java -jar weft-weaver-VERSION-agent.jar --only " + selection + " DIR)";
    }
}
