# Fibers that switch inside Java code calling back into Ruby (JRuby only): JRuby's Java
# integration finds the context to run a callback on through the runtime
# (runtime.getCurrentContext()), so each callback must run on the context of the fiber it is in.
require 'java'

list = java.util.ArrayList.new([1, 2, 3])
walkers = Array.new(2) do |w|
  Fiber.new do
    list.forEach { |x| Fiber.yield "walker #{w}: #{x}" }
    "walker #{w}: done"
  end
end
4.times { walkers.each { |f| puts f.resume if f.alive? } }

raiser = Fiber.new do
  list.forEach do |x|
    Fiber.yield x
    raise ArgumentError, "at #{x}" if x == 2
  end
rescue ArgumentError => e
  "rescued #{e.message} in #{Fiber.current == raiser ? 'its fiber' : 'another fiber'}"
end
3.times { p raiser.resume }
p raiser.alive?
