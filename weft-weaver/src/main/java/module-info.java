/**
 * Weft's bytecode weaver: makes methods able to capture and restore their own frames.
 * {@link dev.weft.weaver.Weaver} is the entry point; the passes live in
 * {@code dev.weft.weaver.analysis} and {@code dev.weft.weaver.rewrite}.
 */
module dev.weft.weaver {
    requires org.objectweb.asm;
    requires org.objectweb.asm.tree;
    requires org.objectweb.asm.tree.analysis;
    requires org.objectweb.asm.commons;
    requires org.objectweb.asm.util;
    requires dev.weft;
    requires transitive java.instrument; // WeaverAgent.premain takes an Instrumentation

    exports dev.weft.weaver;
}
