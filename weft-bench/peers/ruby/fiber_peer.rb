# The Ruby peer of Weft's benchmark suite: Ruby's Fiber, run by MRI (mri-fiber), by JRuby on the
# JVM (jruby-fiber), and by JRuby with Weft's fibers (jruby-weft, weft-jruby), on the workloads of
# weft-bench/peers/README.md. Standard library only.
#
#   ruby fiber_peer.rb bench|switch|memory|chain|fringe [--quick] [N...]   (see the end of this file)
#
# The chain and the ring pass control with Fiber#transfer (symmetric, like a channel hand-off);
# the same-fringe walkers are asymmetric, Fiber#resume and Fiber.yield.

require_relative 'fringe'

# JRuby runs it twice: on its own fibers, and with `-r weft/fiber`, which makes ::Fiber Weft's.
WEFT = defined?(::Weft::Fiber) && ::Fiber.equal?(::Weft::Fiber)
PEER = if RUBY_ENGINE != 'jruby' then 'mri-fiber' elsif WEFT then 'jruby-weft' else 'jruby-fiber' end
CHAIN_LENGTHS = [5, 5000].freeze
FRINGE_LEAVES = [1000, 100_000].freeze

# FIBER_PEER_TRACE=1 marks the timed runs on stderr, so that a log the runtime writes there (JRuby's
# -Djruby.invokedynamic.log.binding=true) shows what happens during them.
TRACE = ENV['FIBER_PEER_TRACE'] == '1'

def trace(text)
  warn "fiber_peer: #{text}" if TRACE
end

def now_ns
  Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
end

# How long each repetition runs and how many there are: the same numbers as every peer.
#   target_ns  wall time one timed run aims at       warmup_ns  untimed runs, at least this long
#   reps       timed runs; the median is reported   max_row_ns where reps runs would take longer, fewer
Plan = Struct.new(:quick, :target_ns, :warmup_ns, :reps, :max_row_ns) do
  def self.make(quick)
    quick ? new(true, 40_000_000, 150_000_000, 3, 1_500_000_000) : new(false, 250_000_000, 500_000_000, 7, 12_000_000_000)
  end

  # Times the block, which runs `count` and returns nanoseconds, the same way in every peer: one
  # untimed run at first_count, which pays what happens only once (fibers started, stacks touched);
  # then counts from first_count up by fours until a run takes an eighth of the target, then the count that takes
  # about the target (a multiple of granule once it reaches one, never below first_count); warm-up
  # runs at that count for warmup_ns unless one run alone is longer (the last one sets the count
  # again); then reps timed runs, or fewer
  # where they would take longer than max_row_ns. Returns nanoseconds per unit, one per timed run.
  def measure(units_per_count, first_count, granule = 1)
    yield(first_count)
    count = first_count
    t = nil
    loop do
      t = yield(count)
      break if t >= target_ns / 8 || count >= (1 << 40)

      count *= 4
    end
    count, n, estimate = fit(count, t, first_count, granule)
    if estimate < warmup_ns
      # Against the clock, not a sum of run times that starts at 0: no Integer here changes its
      # JRuby representation (see MESSAGE_BATCH) between warm-up runs.
      warm_until = now_ns + warmup_ns
      loop do
        t = yield(count)
        break if now_ns >= warm_until
      end
      count, n, = fit(count, t, first_count, granule) # again, now that a JIT may have compiled it
    end
    trace("timed runs: #{n} of #{count}")
    timed = Array.new(n) { yield(count).to_f / (count * units_per_count) }
    trace('timed runs end')
    timed
  end

  # The count that takes about target_ns, from a run of `count` that took t; how many timed runs
  # fit in max_row_ns; and the estimated time of one run.
  def fit(count, t, first_count, granule)
    per_count = [t, 1].max.to_f / count
    c = [1, (target_ns / per_count).to_i].max
    c = [granule, (c.to_f / granule).round * granule].max if c >= granule
    count = [first_count, c].max
    estimate = per_count * count
    n = estimate * reps <= max_row_ns ? reps : (max_row_ns / estimate).to_i.clamp(1, reps)
    [count, n, estimate]
  end
end

def median(xs)
  s = xs.sort
  n = s.size
  n.odd? ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0
end

def row(workload, param, metric, value, unit, note)
  v = value.abs >= 1000 ? format('%.0f', value) : format('%.3f', value)
  puts [PEER, workload, param, metric, v, unit, note.tr("\t\n", '  ')].join("\t")
  $stdout.flush
end

def note(what)
  engine = RUBY_ENGINE == 'jruby' ? "jruby #{JRUBY_VERSION} (ruby #{RUBY_VERSION}) on java #{ENV_JAVA['java.version']}" : "ruby #{RUBY_VERSION}"
  engine += ' with Weft fibers (weft-jruby, AsymCoroutine on the native engine)' if WEFT
  "#{what}; #{engine}"
end

# Ends the fibers of a chain or ring (each stops on a negative message), so that MRI returns their
# stacks to its fiber pool at once rather than at some later collection.
def stop(fibers)
  fibers.each { |f| f.transfer(-1) if f.alive? }
end

# A chain of n fibers, each passing on what it gets, plus one, to the next; the last to main.
def build_chain(n)
  main = Fiber.current
  fibers = Array.new(n)
  (n - 1).downto(0) do |i|
    nxt = i == n - 1 ? main : fibers[i + 1]
    fibers[i] = Fiber.new do |v|
      v = nxt.transfer(v + 1) while v >= 0
    end
  end
  fibers
end

# How many measured rounds a row of the chain or the same fringe is the median of: the run-to-run
# swing of one round on a JVM (a JIT decision, a collection, where 5,000 stacks landed) is larger
# than the differences the rows are read for. Fewer for the same fringe, whose slow peers take
# seconds a round.
# A row starts no further round once its rounds have taken ROUNDS_NS (a slow peer's same fringe
# at 100,000 leaves takes seconds a comparison), so that the peer stays within run-peers.sh's time.
CHAIN_ROUNDS = { false => 5, true => 2 }.freeze
FRINGE_ROUNDS = { false => 3, true => 1 }.freeze
ROUNDS_NS = { false => 40_000_000_000, true => 6_000_000_000 }.freeze

# Up to `count` rounds of the block, each an Array of nanoseconds per unit; at least one.
def rounds(plan, count)
  started = now_ns
  done = []
  while done.size < count && (done.empty? || now_ns - started < ROUNDS_NS[plan.quick])
    done << yield
  end
  done
end

# A row's value from rounds, each the median of its timed runs: the median of the rounds' medians,
# and a note that says how many of each and how far apart the rounds' medians were.
def rounds_value(rounds)
  medians = rounds.map { |ns| median(ns) }
  value = median(medians)
  runs = rounds.map(&:size).uniq.join('/')
  spread = value.zero? ? 0.0 : (medians.max - medians.min) * 100.0 / value
  return [value, "one round: median of #{runs} timed runs"] if rounds.size == 1

  text = "median of #{rounds.size} rounds of #{runs} timed runs each; the rounds' medians " \
         "#{medians.minmax.map { |m| format('%.4g', m) }.join('..')} (spread #{format('%.0f', spread)}% of the median)"
  [value, text]
end

# Each measured round builds its own chain, after a first chain's untimed runs: on the JVM, a
# fiber's loop frame entered before its code was compiled stays interpreted until one of its back
# edges trips a sampled check, which with 5,000 fibers takes thousands of messages. Weft's
# FiberChainBenchmark builds a chain per iteration for the same reason.
def fiber_chain(plan, n)
  chain_hops(plan, n) # warms the code up for the fibers of the next chains
  value, text = rounds_value(rounds(plan, CHAIN_ROUNDS[plan.quick]) { chain_hops(plan, n) })
  row('fiber-chain', n, 'ns-per-hop', value, 'ns',
      note("#{text}; hop = one Fiber#transfer, #{n + 1} per message; a chain built for each round, after a warm-up chain"))
end

# Nanoseconds per hop, one per timed run, of a chain of n fibers built for it.
def chain_hops(plan, n)
  fibers = build_chain(n)
  first = fibers[0]
  ns = plan.measure(n + 1, 1) do |messages|
    t0 = now_ns
    batches, rest = messages.divmod(MESSAGE_BATCH)
    batches.times { send_messages(first, n, MESSAGE_BATCH) }
    send_messages(first, n, rest)
    now_ns - t0
  end
  stop(fibers)
  ns
end

# The measuring loop sends its messages in batches of at most MESSAGE_BATCH, each message the
# value MESSAGE_BASE + its index in the batch, so that every Integer the loop and the chain's
# fibers compute (m, v, v + n for n up to 5,000) stays within 0..21,511 for the whole run. JRuby
# represents an Integer by a Java class chosen by its magnitude (10.1: RubyFixnum$ShortFixnum
# for -32768..32767, $LongFixnum beyond) and its call sites guard their Integer fast paths on
# that class: a value crossing 32,767 would rebind them again and again, and the faster a peer
# the more messages it sends and the more often it would cross. The same program for every peer.
MESSAGE_BATCH = 16_384
MESSAGE_BASE = 128

# Sends `count` (at most MESSAGE_BATCH) messages down the chain that starts at `first`, n fibers
# long, and checks each answer.
def send_messages(first, n, count)
  m = 0
  while m < count
    v = MESSAGE_BASE + m
    r = first.transfer(v)
    raise "chain returned #{r} for #{v}" unless r == v + n

    m += 1
  end
end

def switch_ring(plan, n)
  main = Fiber.current
  fibers = Array.new(n)
  (n - 1).downto(0) do |i|
    # The last fiber's successor is the first, which is made after it: look it up when needed.
    fibers[i] = Fiber.new do |v|
      nxt = fibers[(i + 1) % n]
      v = v.zero? ? main.transfer(0) : nxt.transfer(v - 1) while v >= 0
    end
  end
  start = fibers[0]
  ns = plan.measure(1, 2 * n) do |switches|
    t0 = now_ns
    # A token t makes t + 2 switches: in, t passes round the ring, out to the driver.
    left = switches
    while left > 0
      token = [0, [left, 1 << 30].min - 2].max
      start.transfer(token)
      left -= token + 2
    end
    now_ns - t0
  end
  stop(fibers)
  row('switch', n, 'switches-per-second', 1e9 / median(ns), '1/s',
      note("median of #{ns.size}; ring of fibers passing one token by Fiber#transfer"))
end

def same_fringe_bench(plan, n)
  a = build(0, n, 2)
  b = build(0, n, 3)
  # A check that unequal fringes compare unequal, on small trees (a slow peer takes seconds for large).
  raise 'same-fringe missed a difference' if same_fringe?(build(0, 1000, 2), build(0, 1000, 3, 999))

  # A warm-up round first, untimed, as for the chain: on JRuby, the JIT swapping in its compiled
  # code for a top-level method (walk, same_fringe?: methods of Object) invalidates the call sites
  # of every class below Object, so every site of the walk rebinds and the JVM recompiles it; the
  # binding log shows that burst at the first timed runs of the first round without it.
  fringe_round(plan, n, a, b)
  measured = rounds(plan, FRINGE_ROUNDS[plan.quick]) { fringe_round(plan, n, a, b) }
  value, text = rounds_value(measured)
  row('same-fringe', n, 'ns-per-leaf', value, 'ns', note("#{text}, after a warm-up round; two walker fibers, resume/yield"))
end

# Nanoseconds per leaf, one per timed run, comparing trees a and b of n leaves. The unit is one
# leaf compared: whole trees while that many are left, then a prefix.
def fringe_round(plan, n, a, b)
  plan.measure(1, 1, n) do |count|
    t0 = now_ns
    trees, prefix = count.divmod(n)
    trees.times { raise 'equal fringes compared unequal' unless same_fringe?(a, b) }
    raise 'equal prefixes compared unequal' unless prefix.zero? || same_fringe?(a, b, prefix)
    now_ns - t0
  end
end

def rss_bytes
  File.foreach('/proc/self/status') do |line|
    return line.split[1].to_i * 1024 if line.start_with?('VmRSS:')
  end
  -1
rescue SystemCallError
  -1
end

def settle
  3.times do
    RUBY_ENGINE == 'jruby' ? java.lang.System.gc : GC.start
    sleep 0.02
  end
end

def parked_fiber
  f = Fiber.new { Fiber.yield :parked; :done }
  f.resume # runs to the Fiber.yield, so the fiber has its stack and stays suspended there
  f
end

# Fibers a JVM memory run makes and finishes before its first reading, as weft-bench's memory
# probes and the JVM peers do (MemoryProbe.JIT_WARM_UP, Plan.JIT_WARM_UP): compiling their code is
# then not counted.
JIT_WARM_UP = 10_000

def memory(n)
  RUBY_ENGINE == 'jruby' ? jvm_memory(n) : rss_memory(n)
end

# MRI is no JVM: its figure is the resident set's growth.
def rss_memory(n)
  warm = Array.new(16) { parked_fiber }
  settle
  before = rss_bytes
  fibers = Array.new(n) { parked_fiber }
  settle
  after = rss_bytes
  row('memory', n, 'rss-bytes-per-coroutine', (after - before).to_f / n, 'B',
      note("VmRSS #{before / 1024} -> #{after / 1024} kB; fibers suspended in Fiber.yield"))
  [warm, fibers].each { |fs| fs.size } # keep them reachable until the reading is done
end

# JRuby is a JVM: measured as the JVM peers are (Plan.memoryRows), in a JVM that run-peers.sh
# starts with a fixed, pre-touched heap, so that the resident set grows by native memory only:
# resident = the live heap's growth after full collections + the native growth (the resident
# set's growth less the committed heap's); the live heap's and the plain resident set's growth
# are rows too.
def jvm_memory(n)
  JIT_WARM_UP.times { parked_fiber.resume }
  warm = parked_fiber # one kept, so that the reading before holds what a suspended fiber needs
  jvm_reading # runs the reading's own code before it counts, as Plan.MemoryReading.warmUp
  JIT_QUIET_WARM_UP_READS.times { compilers_idle?(diagnostic_command('compilerQueue')) }
  sleep JIT_QUIET_POLL
  before = jvm_reading
  fibers = Array.new(n) { parked_fiber }
  after = jvm_reading
  heap = after[:heap_used] - before[:heap_used]
  rss = after[:rss] - before[:rss]
  resident = heap + rss - (after[:heap_committed] - before[:heap_committed])
  text = note("fibers suspended in Fiber.yield; VmRSS #{before[:rss] / 1024} -> #{after[:rss] / 1024} kB, " \
              "heap used after GC #{before[:heap_used] / 1024} -> #{after[:heap_used] / 1024} kB, committed " \
              "#{before[:heap_committed] / 1024} -> #{after[:heap_committed] / 1024} kB; " \
              "#{JIT_WARM_UP} fibers made and finished first")
  row('memory', n, 'resident-bytes-per-coroutine', resident.to_f / n, 'B', "live heap + native growth; #{text}")
  row('memory', n, 'heap-bytes-per-coroutine', heap.to_f / n, 'B', text)
  row('memory', n, 'rss-bytes-per-coroutine', rss.to_f / n, 'B', text)
  [warm, fibers].each(&:hash) # keep them reachable until the reading is done
end

# As Plan's (and weft-bench's JvmQuiet): the longest a reading waits for the JIT compilers to be
# idle, in seconds; how often it looks; how many times the warm-up reads the compile queue.
JIT_QUIET_LIMIT = 20
JIT_QUIET_POLL = 0.05
JIT_QUIET_WARM_UP_READS = 1_000

# What `jcmd PID <command>` prints for this JVM, through the DiagnosticCommand MBean.
def diagnostic_command(operation)
  name = javax.management.ObjectName.new('com.sun.management:type=DiagnosticCommand')
  no_args = java.lang.String[0].new
  java.lang.management.ManagementFactory.getPlatformMBeanServer
      .invoke(name, operation, [no_args].to_java, ['[Ljava.lang.String;'].to_java(:string)).to_s
end

# Whether a Compiler.queue output lists no task: every line blank, a heading or "Empty".
def compilers_idle?(queue)
  queue.each_line.all? { |line| l = line.strip; l.empty? || l.end_with?(':') || l == 'Empty' }
end

# Waits until the JIT compilers are idle (at most JIT_QUIET_LIMIT), then returns the C library's
# free memory to the system: a compile's arena and malloc kept by the C library are not counted.
def jvm_quiet
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + JIT_QUIET_LIMIT
  until compilers_idle?(diagnostic_command('compilerQueue')) ||
        Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    sleep JIT_QUIET_POLL
  end
  diagnostic_command('systemTrimNativeHeap')
end

# The JVM's resident set, heap in use and heap committed, after settle, with the compilers idle
# and the C heap trimmed (jvm_quiet).
def jvm_reading
  settle
  jvm_quiet
  rt = java.lang.Runtime.getRuntime
  { rss: rss_bytes, heap_used: rt.totalMemory - rt.freeMemory, heap_committed: rt.totalMemory }
end

# Runs one workload; a failure (say, no memory for more fibers) becomes an `unavailable` row and
# the next workload still runs.
def guarded(workload, param)
  yield
rescue StandardError, NoMemoryError, SystemStackError => e
  reason = "#{e.class}: #{e.message}".tr("\t\n", '  ')
  max_maps = File.read('/proc/sys/vm/max_map_count').strip rescue '?'
  if PEER == 'mri-fiber' && e.message.include?('guard page')
    reason += " (each MRI fiber stack takes two memory mappings, and vm.max_map_count=#{max_maps})"
  end
  puts [PEER, workload, param, 'unavailable', 'NA', '-', reason].join("\t")
  $stdout.flush
  GC.start
end

# MODE [--quick] [N...]: bench runs the fiber chain and the same fringe, then the switch ring for
# each N; switch only the ring for each N; memory one reading for each N (run-peers.sh gives one N
# per process, so each reading is from a fresh process); chain only the fiber chain, at each N
# (5 and 5,000 if none), and fringe only the same fringe, at each N (1,000 and 100,000 if none),
# for comparing builds.
mode = ARGV[0]
unless %w[bench switch memory chain fringe].include?(mode)
  warn 'usage: fiber_peer.rb bench|switch|memory|chain|fringe [--quick] [N...]'
  exit 2
end
plan = Plan.make(ARGV.include?('--quick'))
counts = ARGV[1..].reject { |a| a == '--quick' }.map { |a| Integer(a) }
case mode
when 'bench'
  CHAIN_LENGTHS.each { |n| guarded('fiber-chain', n) { fiber_chain(plan, n) } }
  counts.each { |n| guarded('switch', n) { switch_ring(plan, n) } }
  FRINGE_LEAVES.each { |n| guarded('same-fringe', n) { same_fringe_bench(plan, n) } }
when 'switch'
  counts.each { |n| guarded('switch', n) { switch_ring(plan, n) } }
when 'chain'
  (counts.empty? ? CHAIN_LENGTHS : counts).each { |n| guarded('fiber-chain', n) { fiber_chain(plan, n) } }
when 'fringe'
  (counts.empty? ? FRINGE_LEAVES : counts).each { |n| guarded('same-fringe', n) { same_fringe_bench(plan, n) } }
else
  counts.each { |n| guarded('memory', n) { memory(n) } }
end
