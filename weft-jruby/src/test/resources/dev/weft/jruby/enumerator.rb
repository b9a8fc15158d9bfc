# External enumeration (Enumerator#next) runs on Weft's fibers: JRuby's Enumerator looks ::Fiber up
# by name. enumerator.expected is MRI 3.1's output of this file.
e = [1, 2, 3].each
p e.next, e.next, e.next
begin
  e.next
rescue StopIteration => stop
  puts "StopIteration: #{stop.message}"
end
e.rewind
p e.next

inside = nil
counter = Enumerator.new do |y|
  inside = Fiber.current
  y << :a
  y.yield :b, :c
  :result
end
p counter.next, counter.peek, counter.next
p inside.class.equal?(Fiber), inside.equal?(Fiber.current)
begin
  counter.next
rescue StopIteration => stop
  p stop.result
end

def numbers
  return to_enum(:numbers) unless block_given?
  yield 1
  yield 2
end
n = numbers
p n.next + n.next

fib = Enumerator.new do |y|
  a, b = 0, 1
  loop { y << a; a, b = b, a + b }
end
p Array.new(10) { fib.next }
p fib.take(5)
zipped = [1, 2, 3].each.zip([4, 5, 6].each)
p zipped
