# Same-fringe, shared by fiber_peer.rb and weft-jruby's test program same_fringe.rb: two trees
# of different shapes walked by recursive generator fibers (Fiber#resume, Fiber.yield), compared
# leaf by leaf. Standard library only.

# A leaf's value is LEAF_BASE + its index (LEAF_BASE - 1 for a changed leaf), and the compare
# counts leaves from LEAF_BASE too, so that every leaf and count of trees up to 100,000 leaves
# has one JRuby representation (10.1: RubyFixnum$LongFixnum for anything beyond -32768..32767):
# JRuby's call sites guard their Integer fast paths on that Java class, and leaves 0..99,999 would
# cross from one to the other in every walk. The same program for every peer.
LEAF_BASE = 1 << 20

# A binary tree: a leaf is an Integer, an inner node a two-element Array. See README for the shapes.
def build(lo, hi, divisor, changed = -1)
  return LEAF_BASE + (lo == changed ? -1 : lo) if hi - lo == 1

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

# Compares the fringes of two trees, or only their first `limit` leaves where that is fewer
# (calibration starts with short prefixes).
def same_fringe?(a, b, limit = nil)
  fa = leaves(a)
  fb = leaves(b)
  i = LEAF_BASE
  last = limit && LEAF_BASE + limit
  loop do
    return true if i == last

    la = fa.resume
    lb = fb.resume
    return false unless la.equal?(lb) || la == lb
    return true if la.equal?(DONE)

    i += 1
  end
end
