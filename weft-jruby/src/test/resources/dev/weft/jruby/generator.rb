# A generator on resume/yield: the primes, from a fiber that sieves lazily, and a filter fiber that
# pulls from it (a fiber resumed from another fiber).
primes = Fiber.new do
  found = []
  n = 2
  loop do
    if found.none? { |p| p * p <= n && (n % p).zero? }
      found << n
      Fiber.yield n
    end
    n += 1
  end
end
twins = Fiber.new do
  prev = primes.resume
  loop do
    cur = primes.resume
    Fiber.yield [prev, cur] if cur - prev == 2
    prev = cur
  end
end
p Array.new(15) { primes.resume }
p Array.new(8) { twins.resume }
squares = Fiber.new do |limit|
  (1..limit).each { |i| Fiber.yield i * i }
  :done
end
out = [squares.resume(4)]
out << squares.resume while squares.alive?
p out
