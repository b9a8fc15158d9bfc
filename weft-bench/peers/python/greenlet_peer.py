"""The Python peer of Weft's benchmark suite: greenlets, on the workloads of
weft-bench/peers/README.md. Needs the greenlet package only (install.sh puts it in a venv).

    python greenlet_peer.py bench|switch|memory [--quick] [N...]   (see main)

The chain and the ring pass control with greenlet.switch to the next greenlet (symmetric); the
same-fringe walkers switch back to their parent with each leaf (a generator made of greenlets).
"""

import gc
import platform
import sys
import time

import greenlet

PEER = "python-greenlet"
CHAIN_LENGTHS = [5, 5000]
FRINGE_LEAVES = [1000, 100000]

now_ns = time.perf_counter_ns


class Plan:
    """How long each repetition runs and how many there are: the same numbers as every peer."""

    def __init__(self, quick):
        self.target_ns = 40_000_000 if quick else 250_000_000  # one timed run aims at this
        self.warmup_ns = 150_000_000 if quick else 500_000_000  # untimed runs, at least this long
        self.reps = 3 if quick else 7  # timed runs; the median is reported
        self.max_row_ns = 1_500_000_000 if quick else 12_000_000_000  # fewer runs past this

    def measure(self, units_per_count, first_count, run, granule=1):
        """Times run(count), which returns nanoseconds, the same way in every peer: one untimed run
        at first_count, which pays what happens only once (greenlets started); then counts from
        first_count up by fours until a run takes an eighth of the target, then the count that takes
        about the target (a multiple of granule once it reaches one, never below first_count);
        warm-up runs at that count for warmup_ns unless one run alone is longer (the last one sets
        the count again); then reps timed
        runs, or fewer where they would take longer than max_row_ns. Returns nanoseconds per unit,
        one value per timed run."""
        run(first_count)
        count = first_count
        while True:
            t = run(count)
            if t >= self.target_ns // 8 or count >= 1 << 40:
                break
            count *= 4
        count, n, estimate = self.fit(count, t, first_count, granule)
        if estimate < self.warmup_ns:
            warmed = 0
            while warmed < self.warmup_ns:
                t = run(count)
                warmed += t
            count, n, _ = self.fit(count, t, first_count, granule)  # again, on warm code
        return [run(count) / (count * units_per_count) for _ in range(n)]

    def fit(self, count, t, first_count, granule):
        """The count that takes about target_ns, from a run of `count` that took t; how many timed
        runs fit in max_row_ns; and the estimated time of one run."""
        per_count = max(t, 1) / count
        c = max(1, int(self.target_ns / per_count))
        if c >= granule:
            c = max(granule, round(c / granule) * granule)
        count = max(first_count, c)
        estimate = per_count * count
        n = self.reps
        if estimate * n > self.max_row_ns:
            n = max(1, min(self.reps, int(self.max_row_ns / estimate)))
        return count, n, estimate


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def row(workload, param, metric, value, unit, note):
    v = f"{value:.0f}" if abs(value) >= 1000 else f"{value:.3f}"
    note = note.replace("\t", " ").replace("\n", " ")
    print("\t".join([PEER, workload, str(param), metric, v, unit, note]), flush=True)


def note(what):
    return f"{what}; python {platform.python_version()} greenlet {greenlet.__version__}"


def stage_body(main, nxt):
    """A link of the chain: parks until the first message, then passes each on incremented."""
    v = main.switch()
    while True:
        v = nxt.switch(v + 1)


def ring_body(main, nxt_of):
    """A member of the switch ring: passes the count-down token on, or hands it back when spent."""
    v = main.switch()
    nxt = nxt_of()
    while True:
        v = main.switch(0) if v == 0 else nxt.switch(v - 1)


def fiber_chain(plan, n):
    main = greenlet.getcurrent()
    stages = [greenlet.greenlet(stage_body) for _ in range(n)]
    # Start every stage from here, so that each keeps this greenlet's (small) Python recursion
    # depth; a stage first started by its predecessor would add to that one's depth, and a chain of
    # 5000 would pass the recursion limit.
    for i in range(n):
        stages[i].switch(main, main if i == n - 1 else stages[i + 1])
    first = stages[0]

    def run(messages):
        t0 = now_ns()
        for m in range(messages):
            v = m & 0xFFFF
            r = first.switch(v)
            if r != v + n:
                raise RuntimeError(f"chain returned {r} for {v}")
        return now_ns() - t0

    ns = plan.measure(n + 1, 1, run)
    for g in stages:
        g.throw(greenlet.GreenletExit)
    row("fiber-chain", n, "ns-per-hop", median(ns), "ns",
        note(f"median of {len(ns)}; hop = one greenlet.switch, {n + 1} per message"))


def switch_ring(plan, n):
    main = greenlet.getcurrent()
    ring = [greenlet.greenlet(ring_body) for _ in range(n)]
    for i in range(n):  # started from here for the same reason as the chain's stages
        ring[i].switch(main, lambda i=i: ring[(i + 1) % n])
    start = ring[0]

    def run(switches):
        t0 = now_ns()
        # A token t makes t + 2 switches: in, t passes round the ring, out to the driver.
        left = switches
        while left > 0:
            token = max(0, min(left, 1 << 30) - 2)
            start.switch(token)
            left -= token + 2
        return now_ns() - t0

    ns = plan.measure(1, 2 * n, run)
    row("switch", n, "switches-per-second", 1e9 / median(ns), "1/s",
        note(f"median of {len(ns)}; ring of greenlets passing one token by switch"))
    # Unwind the ring so that its greenlets do not pile up across counts.
    for g in ring:
        g.throw(greenlet.GreenletExit)


def build(lo, hi, divisor, changed=-1):
    """A binary tree: a leaf is an int, an inner node a (left, right) tuple. See README for the shapes."""
    if hi - lo == 1:
        return -1 if lo == changed else lo
    mid = lo + max(1, (hi - lo) // divisor)
    return (build(lo, mid, divisor, changed), build(mid, hi, divisor, changed))


DONE = object()


def leaves(tree):
    """A generator made of a greenlet: each switch() into it returns the next leaf, then DONE."""
    def walk(t):
        if type(t) is tuple:
            walk(t[0])
            walk(t[1])
        else:
            g.parent.switch(t)

    def body():
        walk(tree)
        return DONE

    g = greenlet.greenlet(body)
    return g


def same_fringe(a, b, limit=None):
    """Compares the fringes of two trees, or only their first `limit` leaves where that is fewer
    (calibration starts with short prefixes)."""
    ga = leaves(a)
    gb = leaves(b)
    i = 0
    while i != limit:
        la = ga.switch()
        lb = gb.switch()
        if la is DONE or lb is DONE:
            return la is lb
        if la != lb:
            return False
        i += 1
    return True


def same_fringe_bench(plan, n):
    a = build(0, n, 2)
    b = build(0, n, 3)
    # A check that unequal fringes compare unequal, on small trees (a slow peer takes seconds for large).
    if same_fringe(build(0, 1000, 2), build(0, 1000, 3, 999)):
        raise RuntimeError("same-fringe missed a difference")

    def run(count):
        # The unit is one leaf compared: whole trees while that many are left, then a prefix.
        t0 = now_ns()
        left = count
        while left > 0:
            if not same_fringe(a, b, None if left >= n else left):
                raise RuntimeError("equal fringes compared unequal")
            left -= n
        return now_ns() - t0

    ns = plan.measure(1, 1, run, granule=n)
    row("same-fringe", n, "ns-per-leaf", median(ns), "ns",
        note(f"median of {len(ns)}; two walker greenlets switching leaves to their parent"))


def rss_bytes():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return -1


def settle():
    for _ in range(3):
        gc.collect()
        time.sleep(0.02)


def parked():
    g = greenlet.greenlet(lambda: g.parent.switch() or None)
    g.switch()  # runs to its switch back to us: it keeps its stack and stays suspended there
    return g


def memory(n):
    warm = [parked() for _ in range(16)]
    settle()
    before = rss_bytes()
    gs = [parked() for _ in range(n)]
    settle()
    after = rss_bytes()
    row("memory", n, "rss-bytes-per-coroutine", (after - before) / n, "B",
        note(f"VmRSS {before // 1024} -> {after // 1024} kB; greenlets suspended in a switch to main"))
    return warm, gs


def guarded(workload, param, fn):
    """Runs one workload; a failure becomes an `unavailable` row and the next workload still runs."""
    try:
        fn()
    except (Exception, MemoryError, RecursionError) as e:  # noqa: BLE001 - reported, not hidden
        reason = f"{type(e).__name__}: {e}".replace("\t", " ").replace("\n", " ")
        print("\t".join([PEER, workload, str(param), "unavailable", "NA", "-", reason]), flush=True)


def main(argv):
    """MODE [--quick] [N...]: bench runs the fiber chain and the same fringe, then the switch ring
    for each N; switch only the ring for each N; memory one reading for each N (run-peers.sh gives
    one N per process, so each reading is from a fresh process)."""
    if not argv or argv[0] not in ("bench", "switch", "memory"):
        print("usage: greenlet_peer.py bench|switch|memory [--quick] [N...]", file=sys.stderr)
        return 2
    mode = argv[0]
    plan = Plan("--quick" in argv[1:])
    counts = [int(a) for a in argv[1:] if a != "--quick"]
    if mode == "bench":
        for n in CHAIN_LENGTHS:
            guarded("fiber-chain", n, lambda: fiber_chain(plan, n))
    if mode in ("bench", "switch"):
        for n in counts:
            guarded("switch", n, lambda: switch_ring(plan, n))
    if mode == "bench":
        for n in FRINGE_LEAVES:
            guarded("same-fringe", n, lambda: same_fringe_bench(plan, n))
    if mode == "memory":
        for n in counts:
            guarded("memory", n, lambda: memory(n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
