# Ruby's Fiber semantics, as MRI 3.x has them. semantics.expected is MRI 3.1's output of this
# file, but for one line: JRuby words a break out of a fiber's block "unexpected break" (its own
# fibers too), where MRI says "break from proc-closure".
def try
  yield
rescue StandardError => e
  puts "  #{e.class}: #{e.message}"
end

puts 'values in and out'
f = Fiber.new do |a, b|
  puts "  block got #{a.inspect}, #{b.inspect}"
  x = Fiber.yield
  puts "  yield returned #{x.inspect}"
  y = Fiber.yield(1)
  puts "  yield returned #{y.inspect}"
  z = Fiber.yield(1, 2)
  puts "  yield returned #{z.inspect}"
  :last
end
p f.resume(:a, :b)
p f.resume
p f.resume(7)
p f.resume(8, 9)
p f.alive?
p Fiber.new { |x| x }.resume([1, 2])
p Fiber.new { |x| x }.resume(1, 2)
p Fiber.new { |a, b| [a, b] }.resume([1, 2])
p Fiber.new { |*a| a }.resume
p Fiber.new { |*a| a }.resume(nil)

puts 'alive?'
g = Fiber.new { Fiber.yield; :done }
p g.alive?
g.resume
p g.alive?
p g.resume
p g.alive?

puts 'errors'
try { g.resume }
try { g.transfer }
try { Fiber.current.resume }
try { Fiber.yield }
a = Fiber.new { $b.resume }
$b = Fiber.new { a.resume }
try { a.resume }
root = Fiber.current
try { Fiber.new { root.resume }.resume }
try { Fiber.new { root.transfer }.resume }
r = Fiber.new { try { Fiber.yield 1 }; :transferred_done }
p r.transfer

puts 'exceptions propagate to the resumer'
try { Fiber.new { raise ArgumentError, 'boom' }.resume }
bad = Fiber.new { Fiber.yield 1; raise 'second' }
p bad.resume
try { bad.resume }
p bad.alive?
try { catch(:x) { Fiber.new { throw :x }.resume } }
inner = Fiber.new { raise IndexError, 'from inner' }
outer = Fiber.new do
  begin
    inner.resume
  rescue IndexError => e
    puts "  outer rescued #{e.message}"
  end
  :outer_done
end
p outer.resume

puts 'nesting'
log = []
c = Fiber.new { log << :c1; Fiber.yield :from_c; log << :c2; :c_end }
b = Fiber.new { log << :b1; v = c.resume; log << v; Fiber.yield :from_b; log << c.resume; :b_end }
p b.resume
p b.resume
p log
deep = (1..50).reduce(nil) do |below, i|
  Fiber.new { (below ? below.resume : 0) + i }
end
p deep.resume

puts 'Fiber.current'
cur = Fiber.new { Fiber.current }
p cur.resume.equal?(cur)
p Fiber.current.equal?(Fiber.current)

puts 'transfer'
main = Fiber.current
t2 = Fiber.new { |v| main.transfer(v * 10) }
t1 = Fiber.new { |v| t2.transfer(v + 1) }
p t1.transfer(4)
p t1.alive?, t2.alive?
fin = Fiber.new { :finished_after_transfer }
p fin.transfer
res = Fiber.new { x = Fiber.new { :x_end }; x.transfer; :continued }
p res.resume
p res.alive?

puts 'Fiber#raise'
fr = Fiber.new do
  begin
    Fiber.yield :waiting
  rescue => e
    "rescued #{e.message}"
  end
end
p fr.resume
p fr.raise('poke')
try { Fiber.new { 1 }.raise('unborn') }

puts 'yield from a deep call chain'
def walk(n)
  n.zero? ? Fiber.yield(:bottom) : walk(n - 1)
end
w = Fiber.new { walk(200); :walked }
p w.resume
p w.resume

puts 'break and return'
try { Fiber.new { break }.resume } rescue p $!.class
p Fiber.new { next 5 }.resume
