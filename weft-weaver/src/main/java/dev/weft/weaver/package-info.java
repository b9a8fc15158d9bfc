/**
 * Weft's bytecode weaver, which lets methods save and rebuild their own frames: what
 * serializing a coroutine and the woven engine need.
 *
 * <ul>
 *   <li>{@link dev.weft.weaver.Weaver}: the library, one class file at a time;
 *   <li>{@link dev.weft.weaver.WeaveCommand}: the command line, over a directory or a jar
 *       ({@code java -jar weft-weaver-VERSION-agent.jar --help});
 *   <li>{@link dev.weft.weaver.WeaverAgent}: the Java agent, at class-load time;
 *   <li>{@link dev.weft.weaver.ClassSelection}: the one syntax in which the command line, the
 *       agent and the Maven plugin name the classes to weave, and the one check of which names
 *       matched no class.
 * </ul>
 */
package dev.weft.weaver;
