# Same-fringe (weft-bench/peers/ruby/fiber_peer.rb): two trees of different shapes walked by
# recursive generator fibers, compared leaf by leaf.
def build(lo, hi, divisor, changed = -1)
  return (lo == changed ? -1 : lo) if hi - lo == 1

  mid = lo + [1, (hi - lo) / divisor].max
  [build(lo, mid, divisor, changed), build(mid, hi, divisor, changed)]
end

DONE = Object.new.freeze

def walk(t)
  if t.is_a?(Array)
    walk(t[0])
    walk(t[1])
  else
    Fiber.yield(t)
  end
end

def leaves(tree)
  Fiber.new do
    walk(tree)
    DONE
  end
end

def same_fringe?(a, b)
  fa = leaves(a)
  fb = leaves(b)
  loop do
    la = fa.resume
    lb = fb.resume
    return false unless la.equal?(lb) || la == lb
    return true if la.equal?(DONE)
  end
end

[1, 2, 10, 1000].each do |n|
  same = same_fringe?(build(0, n, 2), build(0, n, 3))
  differs = n > 1 && same_fringe?(build(0, n, 2), build(0, n, 3, n - 1))
  puts "#{n} leaves: same #{same}, changed last leaf compares #{differs ? 'equal' : 'unequal'}"
end
