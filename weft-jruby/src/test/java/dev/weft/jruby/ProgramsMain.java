package dev.weft.jruby;

import dev.weft.jruby.RubyScripts.Fibers;

import org.jruby.RubyInstanceConfig.CompileMode;
import org.jruby.exceptions.RaiseException;

/**
 * The main class of the JVMs that {@link WovenJRubyTest} starts on woven JRuby: runs Ruby fiber
 * programs (this package's script resources), each on a fresh runtime, and prints each one's
 * output after a line naming it.
 *
 * <pre>
 * java ... dev.weft.jruby.ProgramsMain WEFT|JRUBY JIT|OFF PROGRAM...
 * </pre>
 *
 * The first argument names the fibers ({@link Fibers}), the second JRuby's compile mode
 * ({@code OFF}: interpreted only). A program that raises a Ruby exception prints, after what it
 * printed, a line {@value #RAISED} followed by the exception's class and message.
 */
final class ProgramsMain {

    /** What the line before a program's output starts with, before the program's name. */
    static final String HEADER = "=== ";

    /** What the line after a program's output starts with when the program raised. */
    static final String RAISED = "raised: ";

    private ProgramsMain() {
    }

    public static void main(String[] args) {
        Fibers fibers = Fibers.valueOf(args[0]);
        CompileMode mode = CompileMode.valueOf(args[1]);
        for (int i = 2; i < args.length; i++) {
            String program = args[i];
            System.out.println(HEADER + program);
            System.out.print(RubyScripts.withRuntime(fibers, mode, runtime -> {
                try {
                    RubyScripts.execute(runtime, program + ".rb");
                    return null;
                } catch (RaiseException e) {
                    return RAISED + e.getException().getMetaClass().getName() + ": "
                            + e.getException().message(runtime.getCurrentContext()) + "\n";
                }
            }));
        }
        System.out.flush();
    }
}
