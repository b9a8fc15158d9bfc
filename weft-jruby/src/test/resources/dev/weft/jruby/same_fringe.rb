# Same-fringe on the benchmark's own walker (weft-bench/peers/ruby/fringe.rb, copied beside this
# file by the build): two trees of different shapes compared leaf by leaf.
require_relative 'fringe'

[1, 2, 10, 1000].each do |n|
  same = same_fringe?(build(0, n, 2), build(0, n, 3))
  differs = n > 1 && same_fringe?(build(0, n, 2), build(0, n, 3, n - 1))
  puts "#{n} leaves: same #{same}, changed last leaf compares #{differs ? 'equal' : 'unequal'}"
end
