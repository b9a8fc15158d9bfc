package dev.weft.bench;

import java.util.List;

/** How the benchmark JVMs are started: the one option Weft needs, and the java that runs this one. */
final class Jvm {

    /** Gives Weft, and the raw-continuation baselines, access to {@code jdk.internal.vm}. */
    static final String EXPORTS = "--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED";

    private Jvm() {
    }

    /** The java launcher of the running JVM, so that every forked JVM is the same JDK. */
    static String java() {
        return System.getProperty("java.home") + "/bin/java";
    }

    /** The command that runs {@code mainClass} in a fresh JVM on this JVM's class path. */
    static List<String> command(List<String> jvmOptions, Class<?> mainClass, List<String> args) {
        return command(jvmOptions, System.getProperty("java.class.path"), mainClass, args);
    }

    /** The command that runs {@code mainClass} in a fresh JVM on {@code classPath}. */
    static List<String> command(List<String> jvmOptions, String classPath, Class<?> mainClass, List<String> args) {
        List<String> command = new java.util.ArrayList<>();
        command.add(java());
        command.add(EXPORTS);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass.getName());
        command.addAll(args);
        return command;
    }
}
