# The fiber chain of weft-bench/peers/ruby/fiber_peer.rb (thesis section 6.3): each fiber adds one
# to the message and transfers it to the next; the last hands it back to the main fiber.
def chain(n)
  main = Fiber.current
  fibers = Array.new(n)
  (n - 1).downto(0) do |i|
    nxt = i == n - 1 ? main : fibers[i + 1]
    fibers[i] = Fiber.new do |v|
      v = nxt.transfer(v + 1) while v >= 0
      :stopped
    end
  end
  results = (0...5).map { |m| fibers[0].transfer(m * 1000) }
  stops = fibers.map { |f| f.transfer(-1) }.uniq
  puts "chain of #{n}: #{results.inspect}, stopped: #{stops.inspect}, alive: #{fibers.count(&:alive?)}"
end
[1, 5, 500].each { |n| chain(n) }
