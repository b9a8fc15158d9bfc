# Ruby's Fiber on Weft coroutines: after `require 'weft/fiber'`, ::Fiber is Weft::Fiber, and
# JRuby's own fiber class stays reachable as Weft::JRubyFiber. The weft-jruby and weft-core jars
# must be on JRuby's class path, and the JVM must run with
#   --add-exports java.base/jdk.internal.vm=ALL-UNNAMED
# (for example: jruby -J--add-exports -Jjava.base/jdk.internal.vm=ALL-UNNAMED -r weft/fiber program.rb).
require 'jruby'
JRuby::Util.load_ext('dev.weft.jruby.WeftFiberLibrary')
